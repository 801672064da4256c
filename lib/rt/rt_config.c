// SPDX-License-Identifier: MIT
/*
 * rt_config.c - a small validating JSON reader for aclInit()'s configuration
 * file. It keeps nothing but the one option vnpu understands.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rt_config.h"

#define MAX_DEPTH 64
#define KEY_MAX 64

struct parser {
	const char *s;
	size_t len, pos;
	int depth;
	struct rt_config *cfg;
	int status;
	char *err;
	size_t errlen;
};

enum where {
	IN_OTHER,
	IN_TOP,  /* members of the top-level object */
	IN_VNPU, /* members of "vnpu" */
};

static bool fail(struct parser *p, int status, const char *what)
{
	if (p->status == RT_CONFIG_OK) {
		p->status = status;
		if (p->err && p->errlen)
			snprintf(p->err, p->errlen, "%s at byte %zu", what, p->pos);
	}
	return false;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static bool peek(struct parser *p, char c)
{
	return p->pos < p->len && p->s[p->pos] == c;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parse a string; its decoded value (if it fits in @out, else truncated and
 * *@fits false) goes to @out. Escapes other than \uXXXX are decoded;
 * \uXXXX is validated and stored as '?' (no key vnpu reads needs it).
 */
static bool parse_string(struct parser *p, char *out, size_t outlen, bool *fits)
{
	size_t n = 0;

	*fits = true;
	if (!peek(p, '"'))
		return fail(p, RT_CONFIG_SYNTAX, "expected a string");
	p->pos++;
	for (;;) {
		unsigned char c;
		char v;

		if (p->pos >= p->len)
			return fail(p, RT_CONFIG_SYNTAX, "unterminated string");
		c = (unsigned char)p->s[p->pos++];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(p, RT_CONFIG_SYNTAX, "control character in string");
		v = (char)c;
		if (c == '\\') {
			if (p->pos >= p->len)
				return fail(p, RT_CONFIG_SYNTAX, "unterminated string");
			c = (unsigned char)p->s[p->pos++];
			switch (c) {
			case '"': v = '"'; break;
			case '\\': v = '\\'; break;
			case '/': v = '/'; break;
			case 'b': v = '\b'; break;
			case 'f': v = '\f'; break;
			case 'n': v = '\n'; break;
			case 'r': v = '\r'; break;
			case 't': v = '\t'; break;
			case 'u': {
				int i;

				for (i = 0; i < 4; i++) {
					if (p->pos >= p->len || hexval(p->s[p->pos]) < 0)
						return fail(p, RT_CONFIG_SYNTAX, "bad \\u escape");
					p->pos++;
				}
				v = '?';
				break;
			}
			default:
				p->pos--;
				return fail(p, RT_CONFIG_SYNTAX, "bad escape in string");
			}
		}
		if (n + 1 < outlen)
			out[n++] = v;
		else
			*fits = false;
	}
	if (outlen)
		out[n] = '\0';
	return true;
}

static bool digits(struct parser *p)
{
	size_t start = p->pos;

	while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
		p->pos++;
	return p->pos > start;
}

static bool parse_number(struct parser *p)
{
	if (peek(p, '-'))
		p->pos++;
	if (peek(p, '0')) {
		p->pos++;
	} else if (!digits(p)) {
		return fail(p, RT_CONFIG_SYNTAX, "bad number");
	}
	if (peek(p, '.')) {
		p->pos++;
		if (!digits(p))
			return fail(p, RT_CONFIG_SYNTAX, "bad number");
	}
	if (peek(p, 'e') || peek(p, 'E')) {
		p->pos++;
		if (peek(p, '+') || peek(p, '-'))
			p->pos++;
		if (!digits(p))
			return fail(p, RT_CONFIG_SYNTAX, "bad number");
	}
	return true;
}

static bool parse_literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return fail(p, RT_CONFIG_SYNTAX, "unexpected character");
	p->pos += n;
	return true;
}

static bool parse_value(struct parser *p, enum where where, const char *key);

static bool parse_object(struct parser *p, enum where where)
{
	p->pos++; /* '{' */
	if (++p->depth > MAX_DEPTH)
		return fail(p, RT_CONFIG_SYNTAX, "nesting too deep");
	skip_ws(p);
	if (peek(p, '}')) {
		p->pos++;
		p->depth--;
		return true;
	}
	for (;;) {
		char key[KEY_MAX];
		bool fits;

		skip_ws(p);
		if (!parse_string(p, key, sizeof(key), &fits))
			return false;
		if (!fits)
			key[0] = '\0';
		skip_ws(p);
		if (!peek(p, ':'))
			return fail(p, RT_CONFIG_SYNTAX, "expected ':'");
		p->pos++;
		skip_ws(p);
		if (!parse_value(p, where, key))
			return false;
		skip_ws(p);
		if (peek(p, ',')) {
			p->pos++;
			continue;
		}
		if (peek(p, '}')) {
			p->pos++;
			p->depth--;
			return true;
		}
		return fail(p, RT_CONFIG_SYNTAX, "expected ',' or '}'");
	}
}

static bool parse_array(struct parser *p)
{
	p->pos++; /* '[' */
	if (++p->depth > MAX_DEPTH)
		return fail(p, RT_CONFIG_SYNTAX, "nesting too deep");
	skip_ws(p);
	if (peek(p, ']')) {
		p->pos++;
		p->depth--;
		return true;
	}
	for (;;) {
		skip_ws(p);
		if (!parse_value(p, IN_OTHER, NULL))
			return false;
		skip_ws(p);
		if (peek(p, ',')) {
			p->pos++;
			continue;
		}
		if (peek(p, ']')) {
			p->pos++;
			p->depth--;
			return true;
		}
		return fail(p, RT_CONFIG_SYNTAX, "expected ',' or ']'");
	}
}

/* A value; @where and @key say which member it is, to pick out vnpu's option. */
static bool parse_value(struct parser *p, enum where where, const char *key)
{
	bool is_vnpu = where == IN_TOP && key && !strcmp(key, "vnpu");
	bool is_policy = where == IN_VNPU && key && !strcmp(key, "hazard_policy");
	char c;

	if (p->pos >= p->len)
		return fail(p, RT_CONFIG_SYNTAX, "unexpected end of text");
	c = p->s[p->pos];
	if (is_vnpu && c != '{')
		return fail(p, RT_CONFIG_BAD_VALUE, "\"vnpu\" must be an object");
	if (is_policy && c != '"')
		return fail(p, RT_CONFIG_BAD_VALUE, "\"vnpu.hazard_policy\" must be \"serialize\" or \"strict\"");

	switch (c) {
	case '{':
		return parse_object(p, is_vnpu ? IN_VNPU : IN_OTHER);
	case '[':
		return parse_array(p);
	case '"': {
		char value[KEY_MAX];
		size_t at = p->pos;
		bool fits;

		if (!parse_string(p, value, sizeof(value), &fits))
			return false;
		if (is_policy) {
			int policy = fits ? rt_hazard_policy_from_string(value) : RT_HAZARD_UNSET;

			if (policy == RT_HAZARD_UNSET) {
				p->pos = at;
				return fail(p, RT_CONFIG_BAD_VALUE,
					    "\"vnpu.hazard_policy\" must be \"serialize\" or \"strict\"");
			}
			p->cfg->hazard_policy = policy;
		}
		return true;
	}
	case 't':
		return parse_literal(p, "true");
	case 'f':
		return parse_literal(p, "false");
	case 'n':
		return parse_literal(p, "null");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(p);
		return fail(p, RT_CONFIG_SYNTAX, "unexpected character");
	}
}

int rt_config_parse(const char *text, size_t len, struct rt_config *cfg, char *err, size_t errlen)
{
	struct parser p = {
		.s = text,
		.len = len,
		.cfg = cfg,
		.status = RT_CONFIG_OK,
		.err = err,
		.errlen = errlen,
	};

	cfg->hazard_policy = RT_HAZARD_UNSET;
	if (err && errlen)
		err[0] = '\0';
	/* A UTF-8 byte order mark is tolerated. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		p.pos = 3;
	skip_ws(&p);
	if (!peek(&p, '{')) {
		fail(&p, RT_CONFIG_SYNTAX, "the configuration must be a JSON object");
		return p.status;
	}
	if (!parse_object(&p, IN_TOP))
		return p.status;
	skip_ws(&p);
	if (p.pos != p.len) {
		fail(&p, RT_CONFIG_SYNTAX, "text after the JSON object");
		return p.status;
	}
	return RT_CONFIG_OK;
}

int rt_hazard_policy_from_string(const char *s)
{
	if (!strcmp(s, "serialize"))
		return RT_HAZARD_SERIALIZE;
	if (!strcmp(s, "strict"))
		return RT_HAZARD_STRICT;
	return RT_HAZARD_UNSET;
}
