#include <math.h>
#include <string.h>

#include "hq/json.h"

const char *
hq_json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

long
hq_json_long(const cJSON *obj, const char *key, long dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(v) ? (long)v->valuedouble : dflt;
}

int
hq_json_num(const cJSON *obj, const char *key, double *v)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble))
		return -1;
	*v = j->valuedouble;
	return 0;
}

cJSON *
hq_json_add_object(cJSON *array)
{
	cJSON *o = cJSON_CreateObject();

	if (o && !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

int
hq_json_append(struct hq_buf *b, const cJSON *v)
{
	char *t = cJSON_PrintUnformatted(v);

	if (!t)
		return -1;
	hq_buf_puts(b, t);
	cJSON_free(t);
	return 0;
}

cJSON *
hq_json_object(const char *text)
{
	cJSON *j;

	if (!text || !*text)
		return cJSON_CreateObject();
	j = cJSON_Parse(text);
	if (cJSON_IsObject(j))
		return j;
	cJSON_Delete(j);
	return cJSON_CreateObject();
}

cJSON *
hq_json_schema_clean(const cJSON *schema)
{
	cJSON *c = cJSON_Duplicate(schema, 1), *stack[64];
	int top = 0;

	if (!c)
		return NULL;
	/* Depth first; deeper than the stack is left as it is. */
	stack[top++] = c;
	while (top) {
		cJSON *o = stack[--top], *it = o->child;
		while (it) {
			cJSON *next = it->next;
			if (cJSON_IsObject(o) && it->string && strncmp(it->string, "x-", 2) == 0)
				cJSON_Delete(cJSON_DetachItemViaPointer(o, it));
			else if ((cJSON_IsObject(it) || cJSON_IsArray(it)) && top < 64)
				stack[top++] = it;
			it = next;
		}
	}
	return c;
}
