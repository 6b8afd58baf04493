# The look of every demo picture (loaded by each lab's demo.sh): large type
# and thick lines, read on a projector from the back of a lecture hall.
set terminal pngcairo size 1600,900 font "sans,20" linewidth 3 noenhanced
set grid lw 1 lc rgb "#cccccc"
set key outside right top spacing 1.3
set border lw 1.5
