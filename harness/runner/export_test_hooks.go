package runner

// SetStageHook has f called as each stage of a run starts ("plan",
// "generate", "keys", "start", "construct", "search", "validate"), for
// tests that interrupt a run at a chosen stage; it returns a function
// restoring the previous hook. Not for use outside tests.
func SetStageHook(f func(stage string)) (restore func()) {
	old := stageHook
	stageHook = f
	return func() { stageHook = old }
}
