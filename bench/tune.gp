# The curves dataloop-tune measured: gnuplot -e "dir='dataloop-results'" tune.gp
# writes DIR/tuning.png (medians, with min-max bars).
if (!exists("dir")) dir = "dataloop-results"
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

set title "blocks as they lie (solid) and MPICH's engine (dashed), time over packed (below 1: they win)"
set xlabel "block size"
set ylabel "round trip / packed"
set logscale y 2
set key top right
# tune-routes.csv: message, block, then median, min, max of pack, blocks, mpich
r(m, c) = (column(1) == m ? column(c) / column(3) : 1/0)
plot for [m in "131072 1048576 8388608 33554432"] dir."/tune-routes.csv" every ::1 \
       using 2:(r(m + 0, 6)) with linespoints lt (m eq "131072" ? 1 : m eq "1048576" ? 2 : m eq "8388608" ? 3 : 4) \
       title sprintf("%d KiB message", (m + 0) / 1024), \
     for [m in "131072 1048576 8388608 33554432"] dir."/tune-routes.csv" every ::1 \
       using 2:(r(m + 0, 9)) with linespoints dashtype 2 lt (m eq "131072" ? 1 : m eq "1048576" ? 2 : m eq "8388608" ? 3 : 4) notitle, \
     1 with lines dashtype 3 lc "black" notitle
unset logscale y
set key top left

set title "copy rate: memcpy vs non-temporal stores"
set xlabel "copy size"
set ylabel "MB/s"
plot dir."/tune-nt.csv" every ::1 using 1:2:3:4 with yerrorlines title "memcpy", \
     "" every ::1 using 1:5:6:7 with yerrorlines title "non-temporal stores"
unset multiplot
