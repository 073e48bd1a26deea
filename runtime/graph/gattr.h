/*
 * runtime/graph/gattr.h: launch attributes of streams and kernel nodes
 * (CUDA Driver API: cuStreamSetAttribute, cuGraphKernelNodeSetAttribute;
 * the runtime's cudaStreamSetAttribute, cudaGraphKernelNodeSetAttribute
 * take the same ids and 64-byte values), shared by both drop-in
 * libraries.  A kernel node takes the attributes cuda.h marks "valid for
 * graph nodes": the access-policy window, cooperative, cluster
 * dimension and scheduling preference, priority, memory sync domain and
 * map, preferred cluster dimension, device-updatable node, NVLink
 * utilisation hint.  Values are checked as their types' documentation
 * states and recorded in the node (gph.h's attrs, kept by copies and
 * instantiation); an unset attribute reads as CUDA's default.  The
 * cooperative and cluster-dimension attributes change how the node's
 * kernel is launched (gattr_node_launch), the access-policy window goes
 * with the launch to a timing model's L2; the others are hints that
 * change no result.  Errors are gph.h's.
 */
#ifndef PTXEMU_GRAPH_GATTR_H
#define PTXEMU_GRAPH_GATTR_H

#include "runtime/graph/gph.h"

/* Whether v is a value CUDA accepts for attribute id (window sizes up
 * to max_window bytes, the device's MAX_ACCESS_POLICY_WINDOW_SIZE):
 * GPH_OK, GPH_EINVAL or GPH_ENOTSUP. */
int gattr_value_ok(int id, const CUlaunchAttributeValue *v, int max_window);
/* The value of an attribute nobody set (CUDA's defaults). */
CUlaunchAttributeValue gattr_default(int id);

/* Kernel node attributes: n must be a kernel node of this library. */
int gattr_node_set(CUgraphNode n, int id, const CUlaunchAttributeValue *v,
                   int max_window);
int gattr_node_get(CUgraphNode n, int id, CUlaunchAttributeValue *out);
int gattr_node_copy(CUgraphNode dst, CUgraphNode src);
/* The attributes of n that its launch must honour (cooperative, cluster
 * dimension, access-policy window), as cuLaunchKernelEx takes them:
 * their count in out[]. */
#define GATTR_LAUNCH_MAX 3
unsigned gattr_node_launch(CUgraphNode n,
                           CUlaunchAttribute out[GATTR_LAUNCH_MAX]);

#endif
