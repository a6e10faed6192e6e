//go:build !race

package board

// raceEnabled shortens the slowest tests under -race (about 10× slower).
const raceEnabled = false
