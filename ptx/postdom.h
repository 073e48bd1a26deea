/*
 * ptx/postdom.h: immediate post-dominators of a control-flow graph.
 *
 * Contract: a pure graph algorithm that knows nothing about the IR.  The
 * graph has n nodes numbered 0..n-1 plus one virtual exit node.  The
 * successors of node u are succ[succ_off[u] .. succ_off[u+1]), each a
 * node index below n or IR_EXIT_BLOCK ("edge to the virtual exit").
 * Duplicate edges and self-loops are allowed.  No entry node is assumed:
 * every node gets a post-dominator whether or not it is reachable from
 * the function entry.
 *
 * Nodes that cannot reach the exit (infinite loops, dead ends with no
 * successors) would have no post-dominator at all.  As compilers do (LLVM
 * and GCC add a "fake" exit edge to each infinite loop), we add virtual
 * edges: the nodes that cannot reach the exit are split into strongly
 * connected components, and from each *closed* component (one with no edge
 * leaving it) we add one virtual edge to the exit, from its highest-
 * numbered node.  Blocks are numbered in layout order, so that node is the
 * bottom of the loop, normally its latch: divergent branches inside the
 * loop body then reconverge before the back edge instead of at the exit,
 * which a warp stuck in `for (;;) { if (c) a(); else b(); bar.sync; }`
 * needs.  A dead end with no successors is a closed component by itself
 * and gets the edge too.  Components that are not closed get no edge:
 * their nodes reach a closed one, so they keep their real post-dominators.
 *
 * The algorithm is Lengauer and Tarjan's on the reverse graph rooted at
 * the exit, O(m log n) even on pathological nesting.  Every traversal uses
 * an explicit stack, so deep graphs cannot overflow the C stack.
 */
#ifndef PTXEMU_POSTDOM_H
#define PTXEMU_POSTDOM_H

#include <stdint.h>
#include "ptx/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill ipdom[0..n) with each node's immediate post-dominator: a node
 * index, or IR_EXIT_BLOCK.  Returns 0, or -1 (ipdom untouched) when a
 * successor is out of range, n is too large, or memory runs out. */
int ir_postdom(uint32_t n, const uint32_t *succ_off, const uint32_t *succ,
               uint32_t *ipdom);

#ifdef __cplusplus
}
#endif
#endif
