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

set title "blocks sent as they lie, time over packed (below 1: they win)"
set xlabel "block size"
set ylabel "round trip, as they lie / packed"
set logscale y 2
set key top right
r(m) = (column(1) == m ? column(6) / column(3) : 1/0)
plot dir."/tune-blocks.csv" every ::1 using 2:(r(131072)) with linespoints title "128 KiB message", \
     "" every ::1 using 2:(r(1048576)) with linespoints title "1 MiB", \
     "" every ::1 using 2:(r(8388608)) with linespoints title "8 MiB", \
     "" every ::1 using 2:(r(33554432)) with linespoints title "32 MiB", \
     1 with lines dashtype 2 lc "black" notitle
unset logscale y
set key top left

set title "copy rate: memcpy vs non-temporal stores"
set xlabel "copy size"
set ylabel "MB/s"
plot dir."/tune-nt.csv" every ::1 using 1:2:3:4 with yerrorlines title "memcpy", \
     "" every ::1 using 1:5:6:7 with yerrorlines title "non-temporal stores"
unset multiplot
