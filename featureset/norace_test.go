//go:build !race

package featureset

const raceEnabled = false
