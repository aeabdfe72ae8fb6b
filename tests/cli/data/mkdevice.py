# Hostile device files for tests/cli/1020-ingest-device-hostile.t (issue
# 29): FIT built with mkfit.py's helpers, TCX and GPX written out, and
# their gzips. python3 mkdevice.py DIR writes DIR/NAME for each.
import gzip, os, struct, sys, zlib
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkfit import T0, crc, d, fid, fit, ses

F64 = 0x89
# record: time, heart rate, power, cadence, speed (1/1000 m/s), all float64
recdef = d(1, 20, [(253, 4, 0x86), (3, 8, F64), (7, 8, F64), (4, 8, F64),
                   (6, 8, F64)])
def rec(t, hr=130.0, pw=210.0, cad=90.0, speed=8000.0):
    return bytes([1]) + struct.pack('<Idddd', t, hr, pw, cad, speed)
def session(t, elapsed_ms, local=2, fields=None, values=None):
    # cycling, road; elapsed as float64 so that it can be anything
    f = [(253, 4, 0x86), (2, 4, 0x86), (7, 8, F64), (5, 1, 0), (6, 1, 0)]
    v = struct.pack('<IIdBB', t + int(min(elapsed_ms, 1e9) // 1000), t,
                    elapsed_ms, 2, 7)
    if fields:
        f += fields
        v += values
    return d(local, 18, f) + bytes([local]) + v
def lap(t, elapsed_ms):
    return d(3, 19, [(253, 4, 0x86), (2, 4, 0x86), (7, 8, F64)]) + \
        bytes([3]) + struct.pack('<IId', t, t, elapsed_ms)
def file_id(serial, name=None, local=0):
    f = [(0, 1, 0), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8c), (4, 4, 0x86)]
    v = struct.pack('<BHHII', 4, 1, 1567, serial, T0)
    if name is not None:
        f.append((8, len(name) + 1, 7))
        v += name + b'\0'
    return d(local, 0, f) + bytes([local]) + v
good10 = b''.join(rec(T0 + i, 120.0 + i, 200.0 + i) for i in range(10))

out = {}
# Values no body makes, each in one record among good ones (the others'
# fields good); the session's maximum heart rate 60,000 and average power
# -50. Good: heart rate 15, power 16, cadence 17, speed 16.
bad = [dict(hr=60000.0), dict(hr=1e11), dict(hr=-50.0), dict(pw=-50.0),
       dict(pw=1e7), dict(cad=60000.0), dict(speed=-180000.0),
       dict(speed=1e9)]
out['values.fit'] = fit(fid + recdef + good10 +
    b''.join(rec(T0 + 10 + i, **b) for i, b in enumerate(bad)) +
    session(T0, 18000.0, fields=[(17, 8, F64), (20, 2, 0x83)],
            values=struct.pack('<dh', 60000.0, -50)))
# A record at 0xFFFFFFFE (2126) among good ones.
out['future.fit'] = fit(fid + recdef + good10 +
    bytes([1]) + struct.pack('<Idddd', 0xFFFFFFFE, 130, 210, 90, 8000) +
    session(T0, 10000.0))
# Sessions' elapsed times of 9.2e21 s and of 2^63 s less the start (UBSan:
# signed overflows).
out['elapsed.fit'] = fit(fid + recdef + good10 + session(T0, 9.2e24))
out['elapsed63.fit'] = fit(fid + recdef + good10 + session(T0, 9.223372036e21))
# Laps of +1e305 s, -1e305 s and a good one of 5 s.
out['laps.fit'] = fit(fid + recdef + good10 + lap(T0, 1e308) +
    lap(T0 + 3, -1e308) + lap(T0 + 5, 5000.0) + session(T0, 10000.0))
# A product name in Latin-1 (not UTF-8): "Edge 8\xe9t\xe9".
out['latin1.fit'] = fit(file_id(42, b'Edge 8\xe9t\xe9') + recdef + good10 +
    session(T0, 10000.0))
# Two files chained, a day apart, devices SN 1234 and SN 5678.
def ride(serial, t):
    return fit(file_id(serial) + recdef +
        b''.join(rec(t + i, 120.0 + i, 200.0 + i) for i in range(10)) +
        session(t, 10000.0))
out['chained.fit'] = ride(1234, T0) + ride(5678, T0 + 86400)

# Gzips: three layers of a FIT of 4 million identical records (20 MB),
# 16 MiB of one message no reader keeps (a bomb of one layer), a good
# FIT with a wrong CRC and with a wrong length in its trailer.
def gz(b):
    return gzip.compress(b, 9, mtime=0)
def big_fit(body):   # the file CRC left 0: computing it here takes seconds
    h = struct.pack('<BBHI4s', 14, 0x20, 2132, len(body), b'.FIT')
    return h + struct.pack('<H', crc(h)) + body + b'\0\0'
many = big_fit(d(1, 20, [(253, 4, 0x86)]) + (bytes([1]) + struct.pack('<I', T0)) *
           4000000)
out['nested.fit.gz.gz.gz'] = gz(gz(gz(many)))
blob = d(1, 0xFF00, [(0, 255, 0x0D)] * 8) + (bytes([1]) + b'\0' * 2040) * 9000
out['bomb.fit.gz'] = gz(big_fit(blob))
out['good.fit.gz'] = gz(ride(1234, T0))
g = bytearray(out['good.fit.gz'])
g[-8] ^= 1
out['badcrc.fit.gz'] = bytes(g)
g = bytearray(out['good.fit.gz'])
g[-4] ^= 1
out['badlen.fit.gz'] = bytes(g)

# GPX and TCX: a good track of 10 points (heart rate 120..129, cadence 80,
# power 200), then values no body makes and numbers strtod() reads.
GPX_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n%s<gpx version="1.1" '
    'creator="hq test" xmlns="http://www.topografix.com/GPX/1/1" '
    'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">'
    '\n<trk><name>%s</name><type>cycling</type><trkseg>\n')
GPX_TAIL = '</trkseg></trk></gpx>\n'
def gpx_pt(t, hr='130', cad='80', power='200', speed='8', attrs='',
           when=None):
    return ('<trkpt lat="55.7%04d" lon="12.5"%s><ele>10</ele>'
            '<time>%s</time><extensions><power>%s</power>'
            '<gpxtpx:TrackPointExtension><gpxtpx:hr>%s</gpxtpx:hr>'
            '<gpxtpx:cad>%s</gpxtpx:cad><gpxtpx:speed>%s</gpxtpx:speed>'
            '</gpxtpx:TrackPointExtension></extensions></trkpt>\n' %
            (t, attrs, when or '2024-01-01T08:00:%02dZ' % t, power, hr, cad,
             speed))
def gpx(points, doctype='', name='ride'):
    return (GPX_HEAD % (doctype, name) + ''.join(points) + GPX_TAIL)
good_pts = [gpx_pt(i, hr=str(120 + i)) for i in range(10)]
bad_vals = [dict(hr='-50'), dict(hr='1e11'), dict(hr='250000'),
            dict(hr='0x10'), dict(power='-50'), dict(power='0x10'),
            dict(cad='60000'), dict(speed='-180'), dict(hr='inf'),
            dict(hr='nan')]
out['values.gpx'] = gpx(good_pts + [gpx_pt(10 + i, **b)
                                    for i, b in enumerate(bad_vals)])
out['good.gpx'] = gpx(good_pts)
out['future.gpx'] = gpx(good_pts + [gpx_pt(10, when='9999-01-01T00:00:00Z')])
out['attrs.gpx'] = gpx(good_pts[:1] + [gpx_pt(1, attrs=''.join(
    ' a%d="1"' % i for i in range(100000)))])
out['dtd.gpx'] = gpx(good_pts, doctype='<!DOCTYPE gpx [\n<!ELEMENT gpx ANY>\n'
    '<!ENTITY tag "a > b">\n]>\n')
out['xxe.gpx'] = gpx(good_pts, doctype='<!DOCTYPE gpx [\n<!ENTITY xxe SYSTEM '
    '"file:///etc/hostname">\n]>\n', name='&xxe;')

TCX_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase '
    'xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" '
    'xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">\n'
    '<Activities><Activity Sport="Biking"><Id>%s</Id>\n')
TCX_TAIL = ('<Creator><Name>Edge 520</Name><UnitId>3931533084</UnitId>'
    '</Creator></Activity></Activities></TrainingCenterDatabase>\n')
def tcx_pt(t, hr='130', cad='80', watts='200', speed='8', z='Z'):
    return ('<Trackpoint><Time>2024-01-01T08:00:%02d%s</Time>'
            '<HeartRateBpm><Value>%s</Value></HeartRateBpm>'
            '<Cadence>%s</Cadence><Extensions><ns3:TPX><ns3:Speed>%s'
            '</ns3:Speed><ns3:Watts>%s</ns3:Watts></ns3:TPX></Extensions>'
            '</Trackpoint>\n' % (t, z, hr, cad, speed, watts))
def tcx(laps, z='Z'):
    body = ''
    for start, secs, pts in laps:
        body += ('<Lap StartTime="2024-01-01T08:00:%02d%s"><TotalTimeSeconds>'
                 '%s</TotalTimeSeconds><DistanceMeters>100</DistanceMeters>'
                 '<Track>\n%s</Track></Lap>\n' % (start, z, secs, ''.join(pts)))
    return TCX_HEAD % ('2024-01-01T08:00:00' + z) + body + TCX_TAIL
tcx_good = [tcx_pt(i, hr=str(120 + i)) for i in range(10)]
out['values.tcx'] = tcx([(0, '20', tcx_good + [
    tcx_pt(10, hr='-50'), tcx_pt(11, hr='1e11'), tcx_pt(12, watts='-50'),
    tcx_pt(13, cad='0x10'), tcx_pt(14, speed='-180')])])
out['good.tcx'] = tcx([(0, '10', tcx_good)])
# A lap of 2^63 s less the start (UBSan: signed overflow), laps of
# +-1e305 s.
out['lap-huge.tcx'] = tcx([(0, '9.223372036e18', tcx_good)])
out['lap-1e305.tcx'] = tcx([(0, '1e305', tcx_good[:5]),
                            (5, '-1e305', tcx_good[5:])])
out['zoneless.tcx'] = tcx([(0, '10', [tcx_pt(i, z='') for i in range(10)])],
                          z='')
# UTF-16 with a byte order mark, both byte orders.
out['utf16le.gpx'] = out['good.gpx'].replace('UTF-8', 'UTF-16').encode(
    'utf-16')
out['utf16be.tcx'] = b'\xfe\xff' + out['good.tcx'].replace(
    'UTF-8', 'UTF-16').encode('utf-16-be')

for k, v in out.items():
    with open(os.path.join(sys.argv[1], k), 'wb') as f:
        f.write(v.encode() if isinstance(v, str) else v)
