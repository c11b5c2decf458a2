package builtins

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

var _ = register(Builtin{Name: "sleep", Summary: "delay for a specified amount of time", Run: sleep})

func sleep(env *Env) int {
	f := NewFlags(env, "Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an\ninteger.  Given two or more arguments, pause for the amount of time\nspecified by the sum of their values.", "NUMBER[SUFFIX]...", "OPTION")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	total := 0.0
	bad := false
	for _, a := range args {
		s, ok := sleepSeconds(a)
		if !ok {
			env.Errorf("invalid time interval %s", env.Quote(a))
			bad = true
			continue
		}
		total += s
	}
	if bad {
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	var timeout <-chan time.Time
	if total < float64(math.MaxInt64/int64(time.Second)) {
		t := time.NewTimer(time.Duration(total * float64(time.Second)))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return 0
	case <-env.Ctx.Done():
		return 1
	}
}

// ParseSeconds reads NUMBER[SUFFIX] as GNU sleep and timeout take a
// duration: a non-negative decimal number of seconds, or of minutes,
// hours or days with the suffix m, h or d (1.5d), as the llmsh
// command's --timeout takes it too.
func ParseSeconds(s string) (float64, bool) { return sleepSeconds(s) }

// sleepSeconds parses NUMBER[smhd] as GNU sleep does (strtod syntax).
func sleepSeconds(a string) (float64, bool) {
	s := strings.TrimLeft(a, " \t\n\v\f\r")
	mult := 1.0
	// strtod reads hexadecimal too (0x1.8, 0x10, no p exponent
	// needed), where d is a digit, not the days suffix, until a p
	// exponent (decimal) starts.
	hex := strings.HasPrefix(strings.ToLower(strings.TrimLeft(s, "+-")), "0x")
	if n := len(s); n > 0 && !(hex && !strings.ContainsAny(s, "pP") && (s[n-1] == 'd' || s[n-1] == 'D')) {
		switch s[n-1] {
		case 's':
			s = s[:n-1]
		case 'm':
			s, mult = s[:n-1], 60
		case 'h':
			s, mult = s[:n-1], 3600
		case 'd':
			s, mult = s[:n-1], 86400
		}
	}
	if s == "" || strings.Contains(s, "_") {
		return 0, false
	}
	if hex && !strings.ContainsAny(s, "pP") {
		s += "p0"
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && v == 0 || math.IsNaN(v) || v < 0 {
		return 0, false
	}
	return v * mult, true
}
