#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Damages the TRACING_DATA printk or kallsyms block of a perf.data (fuzz regression inputs): damage.py IN OUT MODE
import struct,sys
src,out,mode=sys.argv[1],sys.argv[2],sys.argv[3]
d=bytearray(open(src,'rb').read())
doff,dsize=struct.unpack_from('<QQ',d,40)
feat=struct.unpack_from('<4Q',d,72)
bits=[i for i in range(256) if feat[i//64]>>(i%64)&1]
assert 1 in bits
sec=doff+dsize+16*bits.index(1)
toff,tsize=struct.unpack_from('<QQ',d,sec)
p=toff+10
p=d.index(0,p)+1+2+4
def skipstr():
    global p; p=d.index(0,p)+1
skipstr(); n=struct.unpack_from('<Q',d,p)[0]; p+=8+n
skipstr(); n=struct.unpack_from('<Q',d,p)[0]; p+=8+n
nf=struct.unpack_from('<I',d,p)[0]; p+=4
for i in range(nf):
    n=struct.unpack_from('<Q',d,p)[0]; p+=8+n
ns=struct.unpack_from('<I',d,p)[0]; p+=4
for i in range(ns):
    skipstr(); c=struct.unpack_from('<I',d,p)[0]; p+=4
    for j in range(c):
        n=struct.unpack_from('<Q',d,p)[0]; p+=8+n
kp=p; kn=struct.unpack_from('<I',d,p)[0]; p+=4+kn
pp=p; pn=struct.unpack_from('<I',d,p)[0]
print("kallsyms",kp,kn,"printk",pp,pn,"blob end",toff+tsize, file=sys.stderr)
body=pp+4
if mode=='printk-noquote':
    # every printk line damaged: no quotes, no separator, no newline
    for i in range(body,body+pn): d[i]=ord('x')
elif mode=='printk-quote':
    for i in range(body,body+pn): d[i]=ord('"')
elif mode=='printk-colon':
    pat=b'0x1 : "'
    for i in range(pn): d[body+i]=pat[i%len(pat)]
elif mode=='printk-size':
    struct.pack_into('<I',d,pp,pn+ (toff+tsize-body-pn))
elif mode=='kallsyms-x':
    for i in range(kp+4,kp+4+kn): d[i]=ord('x')
open(out,'wb').write(d)
