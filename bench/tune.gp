# The curves dataloop-tune measured: gnuplot -e "dir='bench/results'" bench/tune.gp
# writes DIR/tuning.png (medians, with min-max bars).
if (!exists("dir")) dir = "bench/results"
set terminal pngcairo size 1500,450 font ",10"
set output dir."/tuning.png"
set datafile separator ","
set multiplot layout 1,3
set logscale x 2
set grid
set key top left
set format x "%.0b %BB"

set title "pipelined ping-pong of an 8 MiB vector"
set xlabel "chunk size"
set ylabel "round trip (us)"
plot dir."/tune-chunks.csv" every ::1 using 1:2:3:4 with yerrorlines title "pipeline mode"

set title "32 MiB in blocks: packed vs sent as they lie"
set xlabel "block size"
set ylabel "round trip (us)"
set logscale y 2
plot dir."/tune-blocks.csv" every ::1 using 1:2:3:4 with yerrorlines title "packed", \
     "" every ::1 using 1:5:6:7 with yerrorlines title "blocks as they lie"
unset logscale y

set title "copy rate: memcpy vs non-temporal stores"
set xlabel "copy size"
set ylabel "MB/s"
plot dir."/tune-nt.csv" every ::1 using 1:2:3:4 with yerrorlines title "memcpy", \
     "" every ::1 using 1:5:6:7 with yerrorlines title "non-temporal stores"
unset multiplot
