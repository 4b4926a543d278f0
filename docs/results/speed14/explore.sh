#!/bin/bash
# speed14, call 1 (issue 30 item 1): where the time goes at one short side with a long K, and what the in-place
# reads cost there. At SIZES (the weak draws of session 44): what cuBLAS runs (cublas_profile.py); the pieces of the
# pick's launch timed alone (the padded copies: pad_copy2_x4; the sliced GEMM: mm_warp_tile with PPS, writing W; the
# slice sum: mm_slice_sum; each as a --source kernel at the padded size); then splitk points (TS 64, 64x128, 128x64;
# K-slices) with padded copies (INPLACE=0), with vload4 in place (INPLACE=1) and with the branch's scalar in-place
# reads (INPLACE=2), and at the padded size itself (no copies); cuBLAS before and after.
# usage (from the checkout, on the lent machine): [SIZES=..] [PADDED=..] bash .carry/speed14/explore.sh
D=.carry/speed14; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg14; B=$D/tilescope; J=/tmp/e1; mkdir -p $J $D/tuning
SIZES=${SIZES:-3286x571x7062,8797x659x1841,1481x709x8271,529x1701x2138}
PADDED=${PADDED:-3286x572x7064,8797x660x1844,1481x712x8272,529x1704x2140}
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 60 python3 $D/cublas_profile.py $SIZES $J/cublas_profile.json 2>&1 | grep -v Warn | tee $J/cublas_profile.log
timeout 40 python3 $D/cublas.py $SIZES $J/cublas_before.json 2>&1 | grep -v Warn
P64="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"    # TS 64: 64x64, 64 work-items
W64="TM=8 TN=4 TSK=16 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=2"   # TS 64, NMUL 2: 64x128, 128 work-items
N2C="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"    # TS 128, NDIV 2: 128x64, 128 work-items
step() { name=$1; t=$2; ps=$3; sz=$4; a=""; for p in $ps; do a="$a --param $p"; done; echo "== $name $(date -u +%T)"
  timeout 60 $B bench --kernel splitk --tile $t $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | cut -c1-140; }
# The pieces alone at the padded size (P64, SLICES 8 and 4): copies, GEMM writing W, the slice sum. Not checked.
KP="(K+(4-K%4)%4)"; NP="(N+(4-N%4)%4)"
echo "== copies $(date -u +%T)"
timeout 60 $B bench --source $D/pad_copy.cl --entry pad_copy2_x4 --size $SIZES --reps 10 --warmup 2 --json $J/copies.json \
  --global "((M*$KP+$KP*$NP)/4+255)/256*256" --local 256 --arg rows0=int:M --arg "cols0=int:$KP" --arg src0=matrix:MxK:in \
  --arg src_rows0=int:M --arg src_cols0=int:K --arg "dst0=matrix:Mx$KP:out" --arg "rows1=int:$KP" --arg "cols1=int:$NP" \
  --arg src1=matrix:KxN:in --arg src_rows1=int:K --arg src_cols1=int:N --arg "dst1=matrix:${KP}x$NP:out" 2>&1 | grep -v "^\[" | cut -c1-120
for s in 8 4; do PPS="((K+7)/8+$s-1)/$s"; S="((K+7)/8+$PPS-1)/($PPS)"
  echo "== gemm_s$s $(date -u +%T)"
  timeout 60 $B bench --source $D/warp_tile.cl --entry mm_warp_tile --size $PADDED --reps 10 --warmup 2 --json $J/gemm_s$s.json \
    --global "((N+63)/64)*64,(M+63)/64,$S" --local "64,1,1" $(for p in $P64 INPLACE=0; do printf -- "--define %s " $p; done) \
    --define TS=64 --define "EDGES=M%64+N%64+K%8" --define ODD=0 --define "PPS=$PPS" \
    --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg "W=matrix:($S*M)xN:out" 2>&1 | grep -v "^\[" | cut -c1-120
  echo "== sum_s$s $(date -u +%T)"
  timeout 60 $B bench --source $D/warp_tile.cl --entry mm_slice_sum --size $PADDED --reps 10 --warmup 2 --json $J/sum_s$s.json \
    --global "((M*N+1023)/1024)*256" --local 256 --define TS=64 --define TSK=8 --define "PPS=$PPS" \
    --arg M=int:M --arg N=int:N --arg K=int:K --arg "W=matrix:($S*M)xN:in" --arg C=matrix:MxN:out 2>&1 | grep -v "^\[" | cut -c1-120
done
for s in 8 4; do step pad_p64_s$s 64 "$P64 INPLACE=0 SLICES=$s" $PADDED; done
for i in 0 1 2; do for s in 8 4 6; do step p64_s${s}_i$i 64 "$P64 INPLACE=$i SLICES=$s" $SIZES; done; done
for i in 0 2; do for s in 8 4; do step w64_s${s}_i$i 64 "$W64 INPLACE=$i SLICES=$s" $SIZES; done; done
for i in 0 2; do for s in 3 4; do step n2c_s${s}_i$i 128 "$N2C INPLACE=$i SLICES=$s" $SIZES; done; done
step p64_s8_i0_again 64 "$P64 INPLACE=0 SLICES=8" $SIZES
step p64_s8_i2_again 64 "$P64 INPLACE=2 SLICES=8" $SIZES
timeout 40 python3 $D/cublas.py $SIZES $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/e1.tgz e1
