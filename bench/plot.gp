# Bar chart of dataloop's pack rate as a ratio of manual loops and MPICH.
# gnuplot -e "dir='dataloop-results'" plot.gp (installed in $(pkgdatadir))
if (!exists("dir")) dir = "dataloop-results"
set terminal pngcairo size 1400,600 font ",10"
set output dir."/ratios.png"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -40 scale 0
set logscale y 2
set grid ytics
set ylabel "dataloop rate / other rate (log scale)"
set key top left
set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2
set title "dataloop pack rate relative to manual loops and MPICH 4.0.2 (same run)"
plot dir."/ratios.dat" using 2:xtic(1) title "dataloop / manual", \
     "" using 3 title "dataloop / MPICH"
