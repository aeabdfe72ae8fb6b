#!/usr/bin/perl
# routes.pl OUTDIR — GPX routes and the truth hq-query search --near must
# give for them, computed here from the points as written (not by hq): the
# great-circle distance by the haversine formula on a sphere of 6371.0088
# km, each route's closest point to each query's centre, and the routes
# within its radius. Routes pass the Golden Gate Bridge, 1.2 km beside it
# and far away; cross the antimeridian; circle near both poles; touch a
# radius exactly (its radius is that point's distance, written in full);
# and wander at random (a fixed seed) around Seattle.
#
# Writes OUTDIR/route-NN.gpx (one a day from 2026-01-01, 18:00 UTC, a
# point every 5 s), OUTDIR/queries.tsv (name lat lon km) and
# OUTDIR/truth.tsv (query, day, distance_km of each route within).
use strict;
use warnings;
use POSIX qw(floor);

my $dir = shift or die "usage: routes.pl OUTDIR\n";
my $R = 6371.0088;
my $PI = 4 * atan2(1, 1);
my $rad = $PI / 180;

sub asin { my $x = shift; return atan2($x, sqrt(1 - $x * $x)); }

sub hav {
	my ($la1, $lo1, $la2, $lo2) = @_;
	my $dla = ($la2 - $la1) * $rad;
	my $dlo = ($lo2 - $lo1) * $rad;
	my $a = sin($dla / 2)**2 + cos($la1 * $rad) * cos($la2 * $rad) * sin($dlo / 2)**2;
	$a = 1 if $a > 1;
	return 2 * $R * asin(sqrt($a));
}

# the point dist km from (lat, lon) at a bearing (degrees)
sub dest {
	my ($lat, $lon, $brg, $d) = @_;
	my ($p1, $l1, $t, $dr) = ($lat * $rad, $lon * $rad, $brg * $rad, $d / $R);
	my $p2 = asin(sin($p1) * cos($dr) + cos($p1) * sin($dr) * cos($t));
	my $l2 = $l1 + atan2(sin($t) * sin($dr) * cos($p1), cos($dr) - sin($p1) * sin($p2));
	my $lo = $l2 / $rad;
	$lo -= 360 while $lo > 180;
	$lo += 360 while $lo < -180;
	return ($p2 / $rad, $lo);
}

# points as written in the GPX, read back as the numbers hq reads
sub fix { return [ map { [ 0 + sprintf('%.7f', $_->[0]), 0 + sprintf('%.7f', $_->[1]) ] } @_ ]; }

my @routes;   # [name, points]
my ($gl, $gL) = (37.8199, -122.4783);
# a line north through the bridge, one 1.2 km west of it, one in Oakland
push @routes, [ 'gg', fix(map { [ dest($gl, $gL, 180, 2 - $_ * 0.05) ] } 0 .. 80) ];
{
	my ($la, $lo) = dest($gl, $gL, 270, 1.2);
	push @routes, [ 'gg_1.2km', fix(map { [ dest($la, $lo, 180, 2 - $_ * 0.05) ] } 0 .. 80) ];
}
push @routes, [ 'oakland', fix(map { [ 37.80 + $_ * 0.0004, -122.27 ] } 0 .. 80) ];
# across the antimeridian near Fiji, and one on its east side only
push @routes, [ 'fiji', fix(map { my $lo = 179.95 + $_ * 0.002; [ -16.8, $lo > 180 ? $lo - 360 : $lo ] } 0 .. 50) ];
push @routes, [ 'fiji_east', fix(map { [ -16.81, -179.98 + $_ * 0.001 ] } 0 .. 80) ];
# around the poles: latitude 89.97 north, all longitudes; 89.9 south
push @routes, [ 'north', fix(map { [ 89.97, -179 + $_ * 2 ] } 0 .. 179) ];
push @routes, [ 'south', fix(map { [ -89.9, -180 + $_ * 3 ] } 0 .. 119) ];
# a straight route whose closest point to the touch centre is P
my ($tl, $tL) = (51.5, -0.12);
push @routes, [ 'touch', fix(map { [ dest($tl, $tL, 90, 2.5 + abs($_ - 20) * 0.01) ] } 0 .. 40) ];
# random walks around Seattle
srand(31);
for my $k (1 .. 24) {
	my @p = ([ 47.55 + rand(0.12), -122.40 + rand(0.15) ]);
	my $brg = rand(360);
	for (1 .. 150) {
		$brg += rand(60) - 30;
		push @p, [ dest(@{ $p[-1] }, $brg, 0.01 + rand(0.03)) ];
	}
	push @routes, [ "seattle$k", fix(@p) ];
}

my @queries = (
	[ 'gg', $gl, $gL, 0.5 ], [ 'gg_2km', $gl, $gL, 2 ], [ 'gg_1km', $gl, $gL, 1 ],
	[ 'fiji', -16.8, 180, 1 ], [ 'fiji_west', -16.8, -180, 3 ], [ 'fiji_far', -16.8, 179.9, 20 ],
	[ 'north', 90, 0, 4 ], [ 'north_side', 89.99, 100, 3 ], [ 'south', -89.95, 45, 6 ],
	[ 'sea1', 47.6, -122.33, 1.5 ], [ 'sea2', 47.62, -122.3, 3 ], [ 'sea3', 47.58, -122.36, 0.7 ],
	[ 'sea4', 47.6, -122.32, 8 ],
);
# the touch query: the radius is P's distance, in full; the same radius a
# micrometre short of it leaves the route out
{
	my $d = 1e9;
	for my $p (@{ $routes[7][1] }) {
		my $x = hav($tl, $tL, @$p);
		$d = $x if $x < $d;
	}
	my $r = 0 + sprintf('%.17g', $d);
	push @queries, [ 'touch', $tl, $tL, sprintf('%.17g', $r) ];
	push @queries, [ 'touch_short', $tl, $tL, sprintf('%.17g', $r - 1e-6) ];
}

mkdir $dir;
for my $i (0 .. $#routes) {
	my ($name, $pts) = @{ $routes[$i] };
	my $t0 = 1767290400 + $i * 86400;   # 2026-01-01T18:00:00Z + i days
	open my $f, '>', sprintf('%s/route-%02d.gpx', $dir, $i) or die;
	print $f qq{<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="routes.pl" xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>$name</name><type>running</type><trkseg>\n};
	for my $j (0 .. $#$pts) {
		my @t = gmtime($t0 + 5 * $j);
		printf $f qq{<trkpt lat="%.7f" lon="%.7f"><time>%04d-%02d-%02dT%02d:%02d:%02dZ</time></trkpt>\n},
		    @{ $pts->[$j] }, $t[5] + 1900, $t[4] + 1, $t[3], $t[2], $t[1], $t[0];
	}
	print $f "</trkseg></trk>\n</gpx>\n";
	close $f;
}
open my $q, '>', "$dir/queries.tsv" or die;
open my $t, '>', "$dir/truth.tsv" or die;
for my $qq (@queries) {
	my ($qn, $la, $lo, $km) = @$qq;
	print $q join("\t", $qn, $la, $lo, $km), "\n";
	for my $i (0 .. $#routes) {
		my $d = 1e9;
		for my $p (@{ $routes[$i][1] }) {
			my $x = hav($la, $lo, @$p);
			$d = $x if $x < $d;
		}
		my @day = gmtime(1767290400 + $i * 86400);
		printf $t "%s\t%04d-%02d-%02d\t%.12f\t%s\n", $qn, $day[5] + 1900,
		    $day[4] + 1, $day[3], $d, $routes[$i][0] if $d <= $km;
	}
}
