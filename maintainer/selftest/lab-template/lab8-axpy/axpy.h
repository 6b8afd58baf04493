/* Lab 8: y = a x + y over n elements (x and y do not overlap). */
#ifndef LAB8_AXPY_H
#define LAB8_AXPY_H

#include <stddef.h>

void axpy(size_t n, double a, const double *x, double *y);

#endif
