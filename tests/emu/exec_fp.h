/* exec_fp.h — floating-point helpers of the VALU (exec_fp.c). */
#ifndef CRK_EMU_EXEC_FP_H
#define CRK_EMU_EXEC_FP_H
#include <stdint.h>

float ex_div_scale_f32(float s0, float s1, float s2, int *vcc);
double ex_div_scale_f64(double s0, double s1, double s2, int *vcc);
float ex_div_fmas_f32(float a, float b, float c, int vcc);
double ex_div_fmas_f64(double a, double b, double c, int vcc);
float ex_div_fixup_f32(float q, float den, float num);
double ex_div_fixup_f64(double q, double den, double num);
double ex_trig_preop_f64(double s0, uint32_t sel);
float ex_frexp_mant_f32(float f);
int32_t ex_frexp_exp_f32(float f);
double ex_frexp_mant_f64(double f);
int32_t ex_frexp_exp_f64(double f);
int32_t ex_cvt_i32(double d);
uint32_t ex_cvt_u32(double d);
unsigned ex_class_f64(double d, int quiet_bit_set);

#endif
