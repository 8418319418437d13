/* tfcc cpu-info [--json]: the CPU fingerprint (tfcc_cpu_info_get), the dispatch level at each
 * TFCC_ISA cap, and the kernel variant each kernel family dispatches to (tfcc_kernel_family_get). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "common/json.h"

#define CMD "cpu-info"

static const char k_usage[] =
    "usage: tfcc cpu-info [--json]\n"
    "\n"
    "Shows what tfcc detected on this CPU: vendor, brand, architecture, usable features (the OS\n"
    "must have enabled their register state), caches, cores, NUMA nodes, AMX permission; the\n"
    "kernel dispatch level at each TFCC_ISA cap; which variant each kernel family runs at the\n"
    "level in effect (TFCC_ISA from the environment, else the CPU's best); and the variants that\n"
    "also need CPU features and the OS's permission (AMX tiles): available, or why not.\n"
    "\n"
    "  --json       machine-readable output\n"
    "  -h, --help   this text\n";

enum { OPT_JSON = 1, OPT_HELP };
static const arg_opt k_opts[] = {
    {OPT_JSON, NULL, "--json", 0}, {OPT_HELP, "-h", "--help", 0}, {0, NULL, NULL, 0}};

/* x86 caps first; NEON only on aarch64 (where x86 caps do not apply). */
static int caps_for(const tfcc_cpu_info *c, tfcc_isa *caps) {
  int n = 0;
  if (strcmp(c->arch, "aarch64") == 0) {
    caps[n++] = TFCC_ISA_GENERIC;
    caps[n++] = TFCC_ISA_NEON;
    return n;
  }
  for (int i = TFCC_ISA_GENERIC; i <= TFCC_ISA_AVX512; i++) caps[n++] = (tfcc_isa)i;
  return n;
}

static void size_text(size_t v, char *buf, size_t n) {
  if (v == 0)
    snprintf(buf, n, "unknown");
  else if (v % (1024 * 1024) == 0)
    snprintf(buf, n, "%zu MiB", v / (1024 * 1024));
  else
    snprintf(buf, n, "%zu KiB", v / 1024);
}

static const char *amx_text(const tfcc_cpu_info *c) {
  if (c->amx_permitted) return "present, permitted";
  if (strcmp(c->arch, "x86_64") != 0) return "n/a";
  return "absent or not permitted";
}

static void print_text(const tfcc_cpu_info *c, tfcc_isa level, const char *env_cap) {
  char l1[32], l2[32], l3[32];
  printf("cpu: %s\n", c->brand[0] ? c->brand : "(unknown)");
  printf("vendor: %s   arch: %s\n", c->vendor[0] ? c->vendor : "(unknown)",
         c->arch[0] ? c->arch : "(unknown)");
  printf("cores: %d logical, ", c->logical_cpus);
  if (c->physical_cores)
    printf("%d physical", c->physical_cores);
  else
    printf("physical unknown");
  printf("   NUMA nodes: %d\n", c->numa_nodes);
  size_text(c->l1d_bytes, l1, sizeof l1);
  size_text(c->l2_bytes, l2, sizeof l2);
  size_text(c->l3_bytes, l3, sizeof l3);
  printf("caches: L1d %s, L2 %s (per core), L3 %s\n", l1, l2, l3);
  printf("features:");
  for (int f = 0; f < TFCC_CPU_FEATURE_COUNT_; f++)
    if ((c->flags >> f) & 1u) printf(" %s", tfcc_cpu_feature_name((tfcc_cpu_feature)f));
  printf("\nnot usable:");
  for (int f = 0; f < TFCC_CPU_FEATURE_COUNT_; f++)
    if (!((c->flags >> f) & 1u)) printf(" %s", tfcc_cpu_feature_name((tfcc_cpu_feature)f));
  printf("\nAMX: %s\n", amx_text(c));
  printf("best ISA: %s\n", tfcc_isa_name(c->best_isa));
  printf("TFCC_ISA: %s -> kernels dispatch at %s\n", env_cap ? env_cap : "(unset)",
         tfcc_isa_name(level));
  tfcc_isa caps[TFCC_ISA_COUNT_];
  int nc = caps_for(c, caps);
  printf("dispatch level by cap:");
  for (int i = 0; i < nc; i++)
    printf("  %s->%s", tfcc_isa_name(caps[i]), tfcc_isa_name(tfcc_isa_dispatch_level(caps[i])));
  printf("\nkernel families at %s:\n", tfcc_isa_name(level));
  printf("  %-18s %-26s %-8s %-40s %s\n", "family", "variant", "needs",
         "variants (lowest ISA first)", "operators");
  for (int i = 0; i < tfcc_kernel_family_count(); i++) {
    tfcc_kernel_family k;
    if (tfcc_kernel_family_get(i, level, &k) != TFCC_OK) continue;
    char vars[256] = "";
    size_t used = 0;
    for (int v = 0; v < k.variant_count && used < sizeof vars; v++) {
      const char *vname = "?";
      tfcc_kernel_family_variant(i, v, &vname, NULL);
      used += (size_t)snprintf(vars + used, sizeof vars - used, "%s%s", v ? "," : "", vname);
    }
    printf("  %-18s %-26s %-8s %-40s %s\n", k.name, k.variant, tfcc_isa_name(k.variant_isa), vars,
           k.ops);
  }
  if (tfcc_kernel_gated_count() > 0) {
    printf("gated variants at %s (taken in place of the family's variant only when available):\n",
           tfcc_isa_name(level));
    for (int i = 0; i < tfcc_kernel_gated_count(); i++) {
      tfcc_kernel_gated g;
      if (tfcc_kernel_gated_get(i, level, &g) != TFCC_OK) continue;
      printf("  %-18s %-26s %-8s %s%s\n", g.family, g.name, tfcc_isa_name(g.isa),
             g.available ? "available" : "unavailable: ", g.available ? "" : g.reason);
      printf("  %-18s %-26s %-8s needs %s\n", "", "", "", g.needs);
    }
  }
}

static void print_json(const tfcc_cpu_info *c, tfcc_isa level, const char *env_cap) {
  json_writer w;
  json_init(&w, stdout);
  json_begin_object(&w);
  json_key(&w, "vendor");
  json_string(&w, c->vendor);
  json_key(&w, "brand");
  json_string(&w, c->brand);
  json_key(&w, "arch");
  json_string(&w, c->arch);
  json_key(&w, "logical_cpus");
  json_int(&w, c->logical_cpus);
  json_key(&w, "physical_cores");
  json_int(&w, c->physical_cores);
  json_key(&w, "numa_nodes");
  json_int(&w, c->numa_nodes);
  json_key(&w, "caches");
  json_begin_object(&w);
  json_key(&w, "l1d_bytes");
  json_int(&w, (int64_t)c->l1d_bytes);
  json_key(&w, "l2_bytes");
  json_int(&w, (int64_t)c->l2_bytes);
  json_key(&w, "l3_bytes");
  json_int(&w, (int64_t)c->l3_bytes);
  json_end_object(&w);
  json_key(&w, "features");
  json_begin_object(&w);
  for (int f = 0; f < TFCC_CPU_FEATURE_COUNT_; f++) {
    json_key(&w, tfcc_cpu_feature_name((tfcc_cpu_feature)f));
    json_bool(&w, (int)((c->flags >> f) & 1u));
  }
  json_end_object(&w);
  json_key(&w, "amx_permitted");
  json_bool(&w, c->amx_permitted);
  json_key(&w, "best_isa");
  json_string(&w, tfcc_isa_name(c->best_isa));
  json_key(&w, "isa_env");
  if (env_cap)
    json_string(&w, env_cap);
  else
    json_null(&w);
  json_key(&w, "dispatch_isa");
  json_string(&w, tfcc_isa_name(level));
  json_key(&w, "dispatch_by_cap");
  json_begin_object(&w);
  tfcc_isa caps[TFCC_ISA_COUNT_];
  int nc = caps_for(c, caps);
  for (int i = 0; i < nc; i++) {
    json_key(&w, tfcc_isa_name(caps[i]));
    json_string(&w, tfcc_isa_name(tfcc_isa_dispatch_level(caps[i])));
  }
  json_end_object(&w);
  json_key(&w, "kernel_families");
  json_begin_array(&w);
  for (int i = 0; i < tfcc_kernel_family_count(); i++) {
    tfcc_kernel_family k;
    if (tfcc_kernel_family_get(i, level, &k) != TFCC_OK) continue;
    json_begin_object(&w);
    json_key(&w, "family");
    json_string(&w, k.name);
    json_key(&w, "ops");
    json_string(&w, k.ops);
    json_key(&w, "variant");
    json_string(&w, k.variant);
    json_key(&w, "variant_isa");
    json_string(&w, tfcc_isa_name(k.variant_isa));
    json_key(&w, "variants");
    json_begin_array_inline(&w);
    for (int v = 0; v < k.variant_count; v++) {
      const char *vname = "?";
      tfcc_isa visa = TFCC_ISA_GENERIC;
      tfcc_kernel_family_variant(i, v, &vname, &visa);
      json_begin_object_inline(&w);
      json_key(&w, "name");
      json_string(&w, vname);
      json_key(&w, "isa");
      json_string(&w, tfcc_isa_name(visa));
      json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_key(&w, "gated_kernels");
  json_begin_array(&w);
  for (int i = 0; i < tfcc_kernel_gated_count(); i++) {
    tfcc_kernel_gated g;
    if (tfcc_kernel_gated_get(i, level, &g) != TFCC_OK) continue;
    json_begin_object(&w);
    json_key(&w, "family");
    json_string(&w, g.family);
    json_key(&w, "name");
    json_string(&w, g.name);
    json_key(&w, "isa");
    json_string(&w, tfcc_isa_name(g.isa));
    json_key(&w, "needs");
    json_string(&w, g.needs);
    json_key(&w, "available");
    json_bool(&w, g.available);
    json_key(&w, "reason");
    if (g.reason)
      json_string(&w, g.reason);
    else
      json_null(&w);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_end_object(&w);
}

int cmd_cpu_info(int argc, char **argv) {
  args a;
  const char *value;
  int as_json = 0;
  args_init(&a, argc, argv);
  for (;;) {
    int id = args_next(&a, k_opts, &value);
    if (id == ARGS_END) break;
    if (id == ARGS_ERROR) return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
    if (id == OPT_HELP) {
      fputs(k_usage, stdout);
      return CLI_EXIT_OK;
    }
    if (id == OPT_JSON) as_json = 1;
    if (id == ARGS_POSITIONAL)
      return cli_error(CMD, CLI_EXIT_USAGE, "unexpected argument '%s'", value);
  }
  tfcc_cpu_info c;
  if (tfcc_cpu_info_get(&c) != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "cannot read the CPU fingerprint");
  const char *env = getenv("TFCC_ISA");
  if (env && !env[0]) env = NULL;
  tfcc_isa cap = TFCC_ISA_COUNT_;
  char err[256];
  if (env && cli_parse_isa("TFCC_ISA", env, &cap, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  tfcc_isa level = tfcc_isa_dispatch_level(cap);
  if (as_json)
    print_json(&c, level, env);
  else
    print_text(&c, level, env);
  return CLI_EXIT_OK;
}
