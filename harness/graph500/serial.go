package graph500

// SerialBFS is a plain queue-based BFS over the undirected edge list: the
// yardstick that tests compare every variant's level structure with. It
// returns parents (-1 unreached, root its own parent) and levels (-1
// unreached). It is deliberately simple, not fast.
func SerialBFS(edges []Edge, nvertices, root int64) (parents, levels []int64) {
	deg := make([]int64, nvertices+1)
	for _, e := range edges {
		deg[e.V0+1]++
		deg[e.V1+1]++
	}
	for v := int64(1); v <= nvertices; v++ {
		deg[v] += deg[v-1]
	}
	adj := make([]int64, deg[nvertices])
	pos := append([]int64(nil), deg[:nvertices]...)
	for _, e := range edges {
		adj[pos[e.V0]] = e.V1
		pos[e.V0]++
		adj[pos[e.V1]] = e.V0
		pos[e.V1]++
	}
	parents = make([]int64, nvertices)
	levels = make([]int64, nvertices)
	for i := range parents {
		parents[i], levels[i] = -1, -1
	}
	parents[root], levels[root] = root, 0
	queue := []int64{root}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, w := range adj[deg[u]:deg[u+1]] {
			if parents[w] < 0 {
				parents[w], levels[w] = u, levels[u]+1
				queue = append(queue, w)
			}
		}
	}
	return parents, levels
}

// LevelsOf returns each vertex's depth along the parent pointers (-1 for
// unreached vertices); parents must form a tree rooted at root (validate
// first).
func LevelsOf(parents []int64, root int64) []int64 {
	lv := make([]int64, len(parents))
	for i := range lv {
		lv[i] = -2
	}
	var stack []int64
	for v := range parents {
		u := int64(v)
		for lv[u] == -2 {
			if parents[u] < 0 {
				lv[u] = -1
				break
			}
			if u == root {
				lv[u] = 0
				break
			}
			stack = append(stack, u)
			u = parents[u]
		}
		for i := len(stack) - 1; i >= 0; i-- {
			w := stack[i]
			lv[w] = lv[parents[w]] + 1
		}
		stack = stack[:0]
	}
	return lv
}
