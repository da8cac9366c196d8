package dobfs

// leaves.go is the leaves step (ours, not in [Krajecki]): on a 1×1 grid a
// vertex of degree 1 (a leaf: one neighbour once self-loops and duplicate
// edges are dropped) is left out of the levels, and one pass after the
// last level finds which leaves the search reached.
//
// Why a search may: leaf v's one edge goes to w, so v is reached exactly
// when w is (or v is the root), one level after w, with w as its only
// possible parent; and v discovers no vertex but w, which is reached
// before it. So the levels over the other vertices find the same vertices
// at the same levels with or without the leaves, and the pass completes
// the parent array (a leaf's parent is w whenever it is reached). Graph500's Kronecker graphs have many (the case info's
// `leaves` counts them), and they are most of the rows a late bottom-up
// level still scans, each at every bottom-up level. Finding them is
// root-independent work of the construction (kernel 1), like the lists'
// order; the pass is part of every timed search, which ends when the
// parent array is complete.
//
// Choices:
//   - A reset marks the leaves visited with the isolated rows (Block.Skip),
//     so that neither direction tests, claims, counts or scans them: a
//     top-down entry that is a leaf fails its visited test, a bottom-up
//     level skips the row as visited.
//   - A root that is a leaf is searched as any root (its level 0 expands
//     its one edge) and is its own parent: no search writes the root's
//     pred on a 1×1 grid, the parents give the root itself (Parents;
//     dob_parents), so a leaf's pred is its neighbour in every search.
//   - Two leaves joined only to each other are reached only from one of
//     them as the root: the pair's second word carries LeafNeighbour.
//   - m_u, the switching rule's unexplored edges, starts without the
//     leaves' edges (one each), which no level explores.
//   - A leaf's predecessor is its neighbour, whichever root reaches it:
//     set once, when the engine is built. What a search decides is which
//     leaves it reaches: the pass clears the visited bits of the others
//     (few: those of the components the root is not in), so that it
//     writes almost nothing, and the parents read after the search come
//     from pred and visited as for any vertex (Parents; dob_parents).
//   - Only on a 1×1 grid: on a 2D grid a leaf's row and its neighbour's
//     column live on different ranks, and the pass would need an exchange.
//     There the option is ignored.

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// LeafNeighbour marks, in a leaf pair's second word, a neighbour that is
// itself a leaf.
const LeafNeighbour = 1 << 31

// FindLeaves fills b.Leaves, the pairs (v, w) of each leaf v and its
// neighbour w (with LeafNeighbour where w is a leaf too) by increasing w,
// then v (the order of the CUDA backend's groups, one visited test per
// neighbour: a hub's leaves share one), and b.Skip, the isolated rows
// with the leaves: what a reset marks visited. Only a 1×1 block has
// leaves.
func (b *Block) FindLeaves() error {
	if b.L.R*b.L.C != 1 {
		return fmt.Errorf("leaves on P(%d,%d) of a %d×%d grid: only a 1×1 grid's block has them", b.I, b.J, b.L.R, b.L.C)
	}
	n := b.L.LocalRows()
	if n > LeafNeighbour {
		return fmt.Errorf("leaves: %d vertices, more than 2^31 (the pairs mark a leaf neighbour in bit 31)", n)
	}
	leaf := func(v uint32) bool { return b.BU.Deg(v) == 1 }
	b.Skip = append([]uint32(nil), b.Isolated...)
	var byW []uint64 // w << 32 | v
	for v := uint32(0); int64(v) < n; v++ {
		if leaf(v) {
			byW = append(byW, uint64(b.BU.List(v)[0])<<32|uint64(v))
			setBit(b.Skip, v)
		}
	}
	slices.Sort(byW)
	b.Leaves = make([]uint32, 0, 2*len(byW))
	for _, x := range byW {
		v, w := uint32(x), uint32(x>>32)
		if leaf(w) {
			w |= LeafNeighbour
		}
		b.Leaves = append(b.Leaves, v, w)
	}
	return nil
}

// NumLeaves is the number of leaves left out of the levels (0 without
// the leaves step).
func (b *Block) NumLeaves() int64 { return int64(len(b.Leaves) / 2) }

// rootLeaf reports whether local row root is a leaf (with the leaves
// step), which the passes count among the leaves reached.
func (b *Block) rootLeaf(root int64) bool {
	return b.Skip != nil && root >= 0 && testBit(b.Skip, uint32(root)) && !testBit(b.Isolated, uint32(root))
}

// leafPass ends a search with leaves: it clears the visited bit of every
// leaf but the root (local row root) whose neighbour w the search did not
// reach (w's visited bit; a leaf neighbour is reached only as the root).
// Their predecessors need no write (leafPreds). It returns the leaves
// reached, the root among them when it is a leaf (as the CUDA pass counts:
// rootLeaf), and whether one of them hangs from the last level's frontier
// (its neighbour in last): the tree then has a level of leaves below the
// loop's last, which the loop never ran. The CUDA kernels' LeafPass and
// FrontierLeaves do the same.
func leafPass(pairs, visited, last []uint32, root int64, workers int) (int64, bool) {
	var reached atomic.Int64
	var deep atomic.Bool
	forChunks(int64(len(pairs)/2), 1, workers, func(lo, hi int64) {
		var r int64
		for k := lo; k < hi; k++ {
			v, x := pairs[2*k], pairs[2*k+1]
			if int64(v) == root { // reached; a deep level hangs from its neighbour's other leaves, if any
				r++
				continue
			}
			w := x &^ LeafNeighbour
			ok := atomicTest(visited, w) // other chunks clear leaves' bits meanwhile (never w's)
			if x&LeafNeighbour != 0 {
				ok = int64(w) == root
			}
			if ok {
				r++
				if testBit(last, w) {
					deep.Store(true)
				}
			} else {
				atomic.AndUint32(&visited[v>>5], ^(1 << (v & 31)))
			}
		}
		reached.Add(r)
	})
	return reached.Load(), deep.Load()
}

// leafPreds sets each leaf's predecessor to its neighbour, its parent in
// every search that reaches it.
func leafPreds(pairs, pred []uint32) {
	for k := 0; k+1 < len(pairs); k += 2 {
		pred[pairs[k]] = pairs[k+1] &^ LeafNeighbour
	}
}
