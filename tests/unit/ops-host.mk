# Host build of the vnpu compute kernels for the unit tests; included by the
# top-level Makefile, paths relative to the project root.
#
# vnpu_ops.c is the integer half (validation, chunking), vnpu_ops_fp.c the
# float half; on the host both are plain C with VNPU_OPS_HOST defined.
OPS_HOST_SRCS := kernel/vnpu_ops.c kernel/vnpu_ops_fp.c
OPS_HOST_CFLAGS := -DVNPU_OPS_HOST -Ikernel
