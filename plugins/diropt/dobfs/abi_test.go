package dobfs

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestABIVersionMatchesHeader checks dobABIVersion against diropt.h's
// DOB_ABI_VERSION, so that a change of the C ABI that forgets the Go side
// fails here, without a GPU, rather than at the library's first load.
func TestABIVersionMatchesHeader(t *testing.T) {
	h, err := os.ReadFile("../cuda/diropt.h")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^#define DOB_ABI_VERSION (\d+)$`).FindSubmatch(h)
	if m == nil {
		t.Fatal("diropt.h: no #define DOB_ABI_VERSION")
	}
	v, err := strconv.Atoi(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	if v != dobABIVersion {
		t.Fatalf("diropt.h's DOB_ABI_VERSION is %d, dobABIVersion %d", v, dobABIVersion)
	}
}
