# Independent check of tst_energy's leavesANegativeEnergyOut, written apart from the C++ fit:
# least squares with the L1 energy held at 0 (the non-negative optimum), by the normal equations
# in exact fractions. Run: python3 tests/measure/energy_nnls_check.py
from fractions import Fraction as F
MiB=1024*1024
e64,e32,eL1,eD,P0=200e-12,100e-12,10e-12,500e-12,20.0
rows=[];J=[]
t=0.25
def add(cols,j): rows.append(cols); J.append(j)
for th in (1,2):
    f=th*50e9*t; add([f,0,0,t], f*e64+P0*t)
    f=th*100e9*t; add([0,f,0,t], f*e32+P0*t)
    b=th*200e9*t; add([0,0,0,t], 0.9*P0*t)  # L1 run, L1 column held at 0
    d=10e9 if th==1 else 15e9
    b=d*t; add([0,0,b,t], b*eD+P0*t)
    b=d*2*t; add([0,0,b,2*t], b*eD+P0*2*t)
# scale columns
k=4
A=[[F(sum(r[i]*r[j] for r in rows)) for j in range(k)] for i in range(k)]
B=[F(sum(r[i]*jj for r,jj in zip(rows,J))) for i in range(k)]
# gaussian elimination
for c in range(k):
    p=max(range(c,k),key=lambda r:abs(A[r][c])); A[c],A[p]=A[p],A[c]; B[c],B[p]=B[p],B[c]
    for r in range(k):
        if r!=c:
            m=A[r][c]/A[c][c]
            A[r]=[a-m*b for a,b in zip(A[r],A[c])]; B[r]-=m*B[c]
x=[float(B[i]/A[i][i]) for i in range(k)]
print("fp64 %.6g fp32 %.6g dram %.6g P0 %.6g"%tuple(x))
