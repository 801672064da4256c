// SPDX-License-Identifier: MIT
/*
 * acl_opattr.c - operator attribute sets (aclopAttr): named values of the
 * kinds CANN's setters take, each name at most once (a later set of the
 * same name replaces the value and its kind). Strings and lists are
 * copied. The items are lib/ops' struct vops_attr, so the set goes to
 * vops_plan() as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "rt_op.h"

static bool attr_ok(const aclopAttr *a)
{
	return a && a->magic == RT_ATTR_MAGIC;
}

static void value_free(struct vops_attr *v)
{
	switch (v->kind) {
	case VOPS_ATTR_STRING:
		free(v->s);
		break;
	case VOPS_ATTR_LIST_INT:
		free(v->li.v);
		break;
	case VOPS_ATTR_LIST_FLOAT:
		free(v->lf.v);
		break;
	default:
		break;
	}
}

const struct vops_attr *rt_attr_find(const aclopAttr *attr, const char *name)
{
	if (!attr_ok(attr))
		return NULL;
	return vops_attr_find(attr->items, attr->count, name);
}

aclopAttr *aclopCreateAttr(void)
{
	aclopAttr *a;

	ACL_ENTER();
	a = calloc(1, sizeof(*a));
	if (!a) {
		rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	a->magic = RT_ATTR_MAGIC;
	return a;
}

void aclopDestroyAttr(const aclopAttr *attr)
{
	aclopAttr *a = (aclopAttr *)attr;
	unsigned int i;

	if (!attr_ok(a))
		return;
	for (i = 0; i < a->count; i++) {
		value_free(&a->items[i]);
		free(a->items[i].name);
	}
	free(a->items);
	a->magic = 0;
	free(a);
}

/*
 * Store @value (whose heap parts the set takes over) under @name. On
 * failure the heap parts of @value are freed.
 */
static aclError attr_set(aclopAttr *attr, const char *name, struct vops_attr *value)
{
	struct vops_attr *slot = (struct vops_attr *)rt_attr_find(attr, name);

	if (slot) {
		value_free(slot);
		value->name = slot->name;
		*slot = *value;
		return ACL_SUCCESS;
	}
	if (attr->count == attr->cap) {
		unsigned int cap = attr->cap ? 2 * attr->cap : 4;
		struct vops_attr *items = realloc(attr->items, cap * sizeof(*items));

		if (!items) {
			value_free(value);
			return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
		}
		attr->items = items;
		attr->cap = cap;
	}
	value->name = strdup(name);
	if (!value->name) {
		value_free(value);
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	}
	attr->items[attr->count++] = *value;
	return ACL_SUCCESS;
}

#define ATTR_BEGIN()                                                                              \
	do {                                                                                      \
		ACL_ENTER();                                                                      \
		ACL_REQUIRE(attr);                                                                \
		ACL_REQUIRE(attrName);                                                            \
		if (!attr_ok(attr))                                                               \
			return rt_err(ACL_ERROR_INVALID_PARAM, "%p is not an operator attribute set", \
				      (void *)attr);                                              \
	} while (0)

aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue)
{
	struct vops_attr v = { .kind = VOPS_ATTR_BOOL, .b = attrValue != 0 };

	ATTR_BEGIN();
	return attr_set(attr, attrName, &v);
}

aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue)
{
	struct vops_attr v = { .kind = VOPS_ATTR_INT, .i = attrValue };

	ATTR_BEGIN();
	return attr_set(attr, attrName, &v);
}

aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue)
{
	struct vops_attr v = { .kind = VOPS_ATTR_FLOAT, .f = attrValue };

	ATTR_BEGIN();
	return attr_set(attr, attrName, &v);
}

aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue)
{
	struct vops_attr v = { .kind = VOPS_ATTR_STRING };

	ATTR_BEGIN();
	ACL_REQUIRE(attrValue);
	v.s = strdup(attrValue);
	if (!v.s)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	return attr_set(attr, attrName, &v);
}

aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue)
{
	struct vops_attr v = { .kind = VOPS_ATTR_DTYPE, .dt = attrValue };

	ATTR_BEGIN();
	return attr_set(attr, attrName, &v);
}

/* Copy a list of @n elements of @size bytes (NULL allowed when n is 0). */
static aclError copy_list(int n, const void *values, size_t size, void **out)
{
	*out = NULL;
	if (n < 0)
		return rt_err(ACL_ERROR_INVALID_PARAM, "numValues %d is negative", n);
	if (!n)
		return ACL_SUCCESS;
	if (!values)
		return rt_err(ACL_ERROR_INVALID_PARAM, "values must not be NULL when numValues is %d", n);
	*out = malloc((size_t)n * size);
	if (!*out)
		return rt_err(ACL_ERROR_BAD_ALLOC, "out of host memory");
	memcpy(*out, values, (size_t)n * size);
	return ACL_SUCCESS;
}

aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues, const int64_t *values)
{
	struct vops_attr v = { .kind = VOPS_ATTR_LIST_INT };
	void *copy;
	aclError ret;

	ATTR_BEGIN();
	ret = copy_list(numValues, values, sizeof(*values), &copy);
	if (ret)
		return ret;
	v.li.n = numValues;
	v.li.v = copy;
	return attr_set(attr, attrName, &v);
}

aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues, const float *values)
{
	struct vops_attr v = { .kind = VOPS_ATTR_LIST_FLOAT };
	void *copy;
	aclError ret;

	ATTR_BEGIN();
	ret = copy_list(numValues, values, sizeof(*values), &copy);
	if (ret)
		return ret;
	v.lf.n = numValues;
	v.lf.v = copy;
	return attr_set(attr, attrName, &v);
}
