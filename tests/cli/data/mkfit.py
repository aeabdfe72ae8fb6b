# Crafted FIT files for tests/cli/1014-ingest-fit-crafted.t, written from
# the protocol: header and file CRCs, definitions, data messages.
# python3 mkfit.py DIR writes DIR/NAME.fit; mkdevice.py builds on its
# helpers.
import struct, sys
T=[0x0000,0xCC01,0xD801,0x1400,0xF001,0x3C00,0x2800,0xE401,0xA001,0x6C00,0x7800,0xB401,0x5000,0x9C01,0x8801,0x4400]
def crc(b, c=0):
    for x in b:
        t=T[c&0xF]; c=(c>>4)&0x0FFF; c=c^t^T[x&0xF]
        t=T[c&0xF]; c=(c>>4)&0x0FFF; c=c^t^T[(x>>4)&0xF]
    return c
def fit(body, size=None):
    h=struct.pack('<BBHI4s',14,0x20,2132,len(body) if size is None else size,b'.FIT')
    h+=struct.pack('<H',crc(h))
    f=h+body
    return f+struct.pack('<H',crc(f))
def d(local,glob,fields): return bytes([0x40|local,0,0])+struct.pack('<HB',glob,len(fields))+b''.join(bytes(f) for f in fields)
T0=1704096000-631065600
fid=d(0,0,[(0,1,0),(1,2,0x84),(2,2,0x84),(3,4,0x8c),(4,4,0x86)])+bytes([0,4])+struct.pack('<HHII',1,1567,42,T0)
rec=lambda: d(1,20,[(253,4,0x86),(3,1,2),(7,2,0x84)])
def r(t,hr,pw): return bytes([1])+struct.pack('<IBH',t,hr,pw)
ses=d(2,18,[(253,4,0x86),(2,4,0x86),(7,4,0x86),(5,1,0),(6,1,0)])+bytes([2])+struct.pack('<IIIBB',T0+9,T0,10000,2,7)
if __name__ == '__main__':
    good=fid+rec()+b''.join(r(T0+i,120+i,200+i) for i in range(10))+ses
    out={}
    out['good']=fit(good)
    out['size4g']=fit(good,0xFFFFFFFF)
    # compressed timestamp (header 0x80 | local 1<<5 | offset 5) before any full timestamp
    recc=d(1,20,[(3,1,2),(7,2,0x84)])
    out['compressed-first']=fit(fid+recc+bytes([0x80|(1<<5)|5])+struct.pack('<BH',130,250)+ses)
    # redefinition mid-file: local 1 as HR+power, 5 records; then local 1 as power only, 5 records
    red=d(1,20,[(253,4,0x86),(7,2,0x84)])
    out['redefined']=fit(fid+rec()+b''.join(r(T0+i,120,200) for i in range(5))+red+b''.join(bytes([1])+struct.pack('<IH',T0+5+i,300) for i in range(5))+ses)
    # a record with every field invalid (time, HR, power) among good ones
    out['all-invalid']=fit(fid+rec()+b''.join(r(T0+i,120,200) for i in range(5))+bytes([1])+struct.pack('<IBH',0xFFFFFFFF,0xFF,0xFFFF)+b''.join(r(T0+5+i,120,200) for i in range(5))+ses)
    # one HR 0xFF
    out['hr-ff']=fit(fid+rec()+b''.join(r(T0+i,0xFF if i==3 else 120,200) for i in range(10))+ses)
    # timestamps going backwards
    out['backwards']=fit(fid+rec()+b''.join(r(T0+t,120,200) for t in [0,1,2,3,2,1,4,5,6,7])+ses)
    for k,v in out.items(): open(sys.argv[1]+'/'+k+'.fit','wb').write(v)
