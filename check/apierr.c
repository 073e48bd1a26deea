/*
 * check/apierr.c: CUDA API errors in the sanitizer's report (see
 * apierr.h).
 */
#include "check/apierr.h"

static const char *or_q(const char *s)
{
    return s && *s ? s : "?";
}

void san_api_error(SanOut *o, const char *api, int code, const char *name,
                   const char *text)
{
    if (!san_out_count(o)) {
        return;
    }
    if (o->fmt != SAN_FMT_TEXT) {
        fputs("{\"tool\":\"api\",\"kind\":\"api-error\",\"api\":", o->out);
        san_json_str(o->out, or_q(api));
        fputs(",\"error\":", o->out);
        san_json_str(o->out, or_q(name));
        fprintf(o->out, ",\"code\":%d,\"description\":", code);
        san_json_str(o->out, or_q(text));
        fputs("}\n", o->out);
        return;
    }
    fprintf(o->out, SAN_P "Program hit %s (error %d) due to \"%s\" on CUDA "
            "API call to %s.\n" SAN_BLANK, or_q(name), code, or_q(text),
            or_q(api));
}
