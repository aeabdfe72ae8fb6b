#include <math.h>

#include "hq/geo.h"

double
hq_geo_distance(double r, double lat1, double lon1, double lat2, double lon2)
{
	const double rad = M_PI / 180;
	double dlat = (lat2 - lat1) * rad, dlon = (lon2 - lon1) * rad;
	double a = sin(dlat / 2) * sin(dlat / 2) +
	    cos(lat1 * rad) * cos(lat2 * rad) * sin(dlon / 2) * sin(dlon / 2);

	return 2 * r * asin(sqrt(a < 1 ? a : 1));
}
