# Measures the skew of ruled paper by hand-checkable figures for Tools/accuracy/real-skew.tsv: the centres of the
# blue rules (blue minus red, against a 61-row running mean) in two narrow column strips far apart, matched rule by
# rule, and the angle each pair gives. Prints Quire's convention (positive = content leaning counter-clockwise:
# the rules rise to the right). Usage: python3 measure_rules.py IMAGE X_LEFT X_RIGHT [STRIP_WIDTH] (numpy, Pillow).
import numpy as np, sys
from PIL import Image
p=sys.argv[1]; im=np.asarray(Image.open(p).convert('RGB')).astype(float)
h,w,_=im.shape
sig=im[:,:,2]-im[:,:,0]   # blue minus red: blue rules stand out
def centres(x0,x1):
    prof=np.median(sig[:,x0:x1],axis=1)
    base=np.convolve(prof,np.ones(61)/61,'same')
    d=prof-base
    thr=max(8,np.percentile(d,99)*0.4)
    cs=[]
    y=0
    while y<h:
        if d[y]>thr:
            y1=y
            while y1<h and d[y1]>thr: y1+=1
            seg=np.arange(max(0,y-2),min(h,y1+2)); wts=np.clip(d[seg],0,None)
            cs.append((seg*wts).sum()/wts.sum()); y=y1
        else: y+=1
    return np.array(cs)
xs=[int(a) for a in sys.argv[2:4]]; W=int(sys.argv[4]) if len(sys.argv)>4 else 60
L=centres(xs[0],xs[0]+W); R=centres(xs[1],xs[1]+W)
dx=(xs[1]-xs[0])
print(p, 'rules left',len(L),'right',len(R), 'dx',dx)
angs=[]
for yl in L:
    j=np.argmin(abs(R-yl)); 
    if abs(R[j]-yl)<20:
        a=np.degrees(np.arctan((yl-R[j])/dx)); angs.append(a)
        print('  yL %.1f yR %.1f drop %.1f -> %.3f'%(yl,R[j],yl-R[j],a))
print('median %.3f mean %.3f n %d'%(np.median(angs),np.mean(angs),len(angs)))
