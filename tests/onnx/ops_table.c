// SPDX-License-Identifier: MIT
/*
 * ops_table.c - the README's operator table, from lib/ops and lib/onnx/map
 * themselves: every CANN operator type vops_plan() knows, the ONNX
 * operators mapped to it, its data types, input and output counts and
 * attributes. tests/onnx/check-readme-ops.sh compares it with README.md.
 *
 *   ops_table          print the markdown table
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl_base.h"
#include "onnx_map.h"
#include "vnpu_ops.h"

static const char *short_name(int32_t dt)
{
	switch (dt) {
	case ACL_FLOAT: return "fp32";
	case ACL_FLOAT16: return "fp16";
	case ACL_BF16: return "bf16";
	case ACL_DOUBLE: return "fp64";
	case ACL_INT8: return "i8";
	case ACL_UINT8: return "u8";
	case ACL_INT16: return "i16";
	case ACL_UINT16: return "u16";
	case ACL_INT32: return "i32";
	case ACL_UINT32: return "u32";
	case ACL_INT64: return "i64";
	case ACL_UINT64: return "u64";
	case ACL_BOOL: return "bool";
	default: return "?";
	}
}

/* "3", "1-4", or "1+" for a variadic count of 16 or more. */
static void range(char *buf, size_t n, int lo, int hi)
{
	if (lo == hi)
		snprintf(buf, n, "%d", lo);
	else if (hi >= 16)
		snprintf(buf, n, "%d+", lo);
	else
		snprintf(buf, n, "%d-%d", lo, hi);
}

int main(void)
{
	struct vops_op_info in;
	unsigned int i;

	printf("| CANN operator | from ONNX | data types | inputs | outputs | attributes |\n");
	printf("| --- | --- | --- | --- | --- | --- |\n");
	for (i = 0; vops_op_info(i, &in); i++) {
		const struct onnx_map_entry *e;
		char a[16], b[16];
		bool first = true;
		int k;

		printf("| `%s` | ", in.name);
		for (e = onnx_map_first(); e; e = onnx_map_next(e))
			if (onnx_map_lists(e, in.name)) {
				printf("%s%s", first ? "" : ", ", e->onnx);
				first = false;
			}
		printf("%s | ", first ? "—" : "");
		for (k = 0; k < in.ndtypes; k++)
			printf("%s%s", k ? " " : "", short_name(in.dtypes[k]));
		range(a, sizeof(a), in.nin_min, in.nin_max);
		range(b, sizeof(b), in.nout_min, in.nout_max);
		printf("%s | %s | %s | ", in.mixed ? " (input 0)" : "", a, b);
		for (k = 0; in.attrs && in.attrs[k]; k++)
			printf("%s`%s`", k ? ", " : "", in.attrs[k]);
		printf("%s |\n", k ? "" : "—");
	}
	return 0;
}
