package interp

import (
	"context"
	"errors"

	"github.com/llmsh/llmsh/posixre"
	"github.com/llmsh/llmsh/third_party/sh/internal"
)

// llmsh: [[ s =~ re ]] reads re as bash does, a POSIX ERE as glibc's
// regcomp (without REG_NEWLINE) reads it, through posixre: back-references
// ((a)\1), \< and \>, \w, an unknown escape as its character (\d is d),
// an invalid interval (a{) an error (status 2); "." matches a newline and
// the match is the leftmost longest. Go's RE2 syntax, used before, read
// \d as a digit and refused \1.
//
// A long string's match can be stopped: one leftmost-longest match scans
// a 16 MB string for a minute (`[a-z]{1,30}Q`), and nothing looked at the
// run's context meanwhile, so a library Session.Run went on a minute past
// its time limit (session 17, red team); posixre reads a long subject
// through a reader that looks at the context.

// reCache holds the last 64 patterns reMatch compiled, by text and case,
// of up to reCacheLen bytes each: it is the process's, and a long
// pattern's program is large (a 2 MB alternation compiles to 225 MB: six
// kept 1.5 GB live after the Run, for every session of the process).
var reCache = internal.Cache[reKey, reCompiled]{Max: 64}

const reCacheLen = 512 // bytes: a longer pattern is not kept

type reKey struct {
	pat           string
	nocase, bytes bool
}

type reCompiled struct {
	re  *posixre.Regexp
	err error
}

// reMaxLen bounds the length of a pattern (session 24, red team): its
// compile looks at no context, and takes time and memory in proportion
// to it (a 2 MB alternation, `p=$(seq 100000 399999 | paste -sd'|')`,
// took 2-7 s and 225 MB; a value may hold 256 MB), so a library Run went
// on past its time limit for as long as the compile took. A longer one
// fails as bash's does when glibc's regcomp runs out of memory (status
// 2); bash took 20 s for a 210 KB alternation, and was killed on 2 MB.
const reMaxLen = 1 << 20

var errReTooBig = errors.New("regular expression too big")

// reMatch matches s against the ERE pat: the match and its groups (""
// for a group that took no part), nil if none or once ctx is done; err
// is pat's syntax error. bytes is the C locale's matching, where each
// byte is a character (bash's regcomp after LC_ALL=C: é is two).
func reMatch(ctx context.Context, pat, s string, nocase, bytes bool) ([]string, error) {
	if len(pat) > reMaxLen {
		return nil, errReTooBig
	}
	compile := func() reCompiled {
		fl := posixre.ERE | posixre.RegComp
		if nocase {
			fl |= posixre.IgnoreCase
		}
		if bytes {
			fl |= posixre.Bytes
		}
		re, err := posixre.Compile(pat, fl)
		return reCompiled{re, err}
	}
	var c reCompiled
	if len(pat) > reCacheLen {
		c = compile()
	} else {
		c = reCache.Get(reKey{pat, nocase, bytes}, compile)
	}
	if c.err != nil {
		return nil, c.err
	}
	loc, err := c.re.FindSubmatchIndexContext(ctx, []byte(s))
	if err != nil || loc == nil {
		return nil, nil
	}
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return m, nil
}
