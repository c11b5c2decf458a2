package getopt_test

import (
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/internal/getopt"
)

// TestHelpAliasesAndShorts: --help lists another long name after the
// option's own (on a line of its own when the two are too wide), and the
// short forms of --help and --version on their fixed lines.
func TestHelpAliasesAndShorts(t *testing.T) {
	var out strings.Builder
	f := New("cmd", &out, &out, "")
	f.Bool('q', "quiet", "be quiet")
	f.Synonym("silent", "quiet")
	f.Func(0, "color", OptionalArg, "WHEN", "colour the output", func(string, bool) error { return nil })
	f.Synonym("colour", "color")
	f.HelpShort, f.VersionShort = 'h', 'V'
	f.PrintHelp(&out)
	want := "Usage: cmd [OPTION]...\n\n" +
		"  -q, --quiet, --silent  be quiet\n" +
		"      --color[=WHEN],\n" +
		"      --colour[=WHEN]    colour the output\n" +
		"  -h, --help        display this help and exit\n" +
		"  -V, --version     output version information and exit\n"
	if out.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestAliasAndLong: an alias sets what its option sets, a prefix of both
// names is not ambiguous, and Long tells the spelling used.
func TestAliasAndLong(t *testing.T) {
	var got []string
	f := New("cmd", nil, nil, "")
	f.Func('S', "buffer-size", RequiredArg, "SIZE", "size", func(v string, _ bool) error {
		got = append(got, v+map[bool]string{true: " long", false: " short"}[f.Long()])
		return nil
	})
	quiet := f.Bool('q', "quiet", "be quiet")
	f.Alias("qsilent", "quiet")
	if _, err := f.Parse([]string{"-S", "1", "--buffer-size=2", "-S3", "--buf", "4", "--q"}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "1 short,2 long,3 short,4 long" || !*quiet {
		t.Errorf("got %q, quiet %v", got, *quiet)
	}
}

// TestAliasUnlisted: an Alias works but --help does not list it.
func TestAliasUnlisted(t *testing.T) {
	var out strings.Builder
	f := New("cmd", &out, &out, "")
	quiet := f.Bool('q', "quiet", "be quiet")
	f.Alias("silent", "quiet")
	f.PrintHelp(&out)
	if strings.Contains(out.String(), "silent") {
		t.Errorf("help lists the alias:\n%s", out.String())
	}
	if _, err := f.Parse([]string{"--silent"}); err != nil || !*quiet {
		t.Errorf("--silent: %v %v", err, *quiet)
	}
}

// TestHelpWraps: a description too wide for 79 columns is filled as GNU
// fills it, its further lines two columns in from the description's,
// running on into a further line of the writer's; free text breaks at its
// own indentation; a word too long for any line stays whole.
func TestHelpWraps(t *testing.T) {
	var out strings.Builder
	f := New("cmd", &out, &out, "Summary words that go on and on until they no longer fit on one line of help.")
	f.Bool('f', "force", "if an existing destination file cannot be opened, remove it and try again\n(this option is ignored when the -n option is also used)")
	f.Bool(0, "strip-trailing-slashes", "remove any trailing slashes from each SOURCE argument")
	f.Bool('x', "", strings.Repeat("x", 90))
	f.Epilog = "  an indented epilog line that is much too long to fit in the seventy-nine columns"
	f.NoVersion = true
	f.PrintHelp(&out)
	want := "Usage: cmd [OPTION]...\n" +
		"Summary words that go on and on until they no longer fit on one line of help.\n\n" +
		"  -f, --force  if an existing destination file cannot be opened, remove it and\n" +
		"                 try again (this option is ignored when the -n option is also\n" +
		"                 used)\n" +
		"      --strip-trailing-slashes  remove any trailing slashes from each SOURCE\n" +
		"                 argument\n" +
		"  -x           " + strings.Repeat("x", 90) + "\n" +
		"      --help        display this help and exit\n\n" +
		"  an indented epilog line that is much too long to fit in the seventy-nine\n" +
		"  columns\n"
	if out.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestHelpSectionsRowsGaps: sections, listed rows that are no option and
// empty lines between options, in GNU grep's layout (further lines at the
// description's column, --help and --version listed by the command).
func TestHelpSectionsRowsGaps(t *testing.T) {
	var out strings.Builder
	f := New("cmd", &out, &out, "")
	f.NoMandatoryNote, f.FlushFurther, f.OwnHelpRows = true, true, true
	f.Section("Matching:")
	f.Func('e', "regexp", RequiredArg, "PATTERNS", "use PATTERNS\nfor matching", func(string, bool) error { return nil })
	f.Row("-NUM", "same as --context=NUM")
	f.Gap()
	f.Bool('v', "invert", "invert")
	f.Section("Miscellaneous:")
	f.Row("    --help", "display this help text and exit")
	f.Footer = "closing words"
	f.PrintHelp(&out)
	want := "Usage: cmd [OPTION]...\n\nMatching:\n" +
		"  -e, --regexp=PATTERNS  use PATTERNS\n" +
		"                         for matching\n" +
		"  -NUM                   same as --context=NUM\n\n" +
		"  -v, --invert           invert\n\n" +
		"Miscellaneous:\n" +
		"      --help             display this help text and exit\n\n" +
		"closing words\n"
	if out.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestHelpUtilLinux: util-linux's layout, an argument after a space.
func TestHelpUtilLinux(t *testing.T) {
	var out strings.Builder
	f := New("look", &out, &out, "Display lines beginning with a specified string.", "[options] <string> [<file>...]")
	f.UtilLinux = true
	f.HelpShort, f.VersionShort = 'h', 'V'
	f.Bool('a', "alternative", "use the alternative dictionary")
	f.String('t', "terminate", "<char>", "define the string-termination character")
	f.PrintHelp(&out)
	want := "\nUsage:\n look [options] <string> [<file>...]\n\n" +
		"Display lines beginning with a specified string.\n\nOptions:\n" +
		" -a, --alternative       use the alternative dictionary\n" +
		" -t, --terminate <char>  define the string-termination character\n\n" +
		" -h, --help              display this help\n" +
		" -V, --version           display version\n"
	if out.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestSetOrder: with the GNU table's order an ambiguous prefix lists its
// options in that order, as glibc does: an alias of another option than
// the first match's is listed, --help and --version are in the table.
func TestSetOrder(t *testing.T) {
	newFlags := func() *Flags {
		f := New("cmd", nil, nil, "")
		f.Bool('c', "count", "")
		f.Bool(0, "color", "")
		f.Alias("colour", "color")
		f.Bool('v', "verbose", "")
		f.SetOrder("context count color colour verbose version")
		return f
	}
	for _, c := range []struct{ arg, want string }{
		{"--c", "option '--c' is ambiguous; possibilities: '--count' '--color' '--colour'"},
		{"--col", ""},
		{"--v", "option '--v' is ambiguous; possibilities: '--verbose' '--version'"},
		{"--verb", ""},
	} {
		_, err := newFlags().Parse([]string{c.arg})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.arg, got, c.want)
		}
	}
}
