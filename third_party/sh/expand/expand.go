// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/internal"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"mvdan.cc/sh/v3/pattern"
)

// A Config specifies details about how shell expansion should be performed. The
// zero value is a valid configuration.
type Config struct {
	// Env is used to get and set environment variables when performing
	// shell expansions. Some special parameters are also expanded via this
	// interface, such as:
	//
	//   * "#", "@", "*", "0"-"9" for the shell's parameters
	//   * "?", "$", "PPID" for the shell's status and process
	//   * "HOME foo" to retrieve user foo's home directory (if unset,
	//     os/user.Lookup will be used)
	//
	// If nil, there are no environment variables set. Use
	// ListEnviron(os.Environ()...) to use the system's environment
	// variables.
	Env Environ

	// CmdSubst expands a command substitution node, writing its standard
	// output to the provided [io.Writer].
	//
	// If nil, encountering a command substitution will result in an
	// UnexpectedCommandError.
	CmdSubst func(io.Writer, *syntax.CmdSubst) error

	// MaxValue bounds, in bytes, the output a command substitution keeps
	// and each word a Literal or Fields expands to (ValueTooLargeError
	// past it); zero for no bound. llmsh: a value that big would take the
	// shell's heap past its limit before the memory guard could stop it.
	MaxValue int

	// HeapCheck, when set, is called every 64Ki fields that a split
	// makes (llmsh, session 31, red team: `IFS=0; set -- $x` of a 20 MB
	// value under a 256 MiB memory limit reached 500 MB of RSS before
	// the memory guard's tick), with grow 0, and before a list of
	// fields of bigList or more grows, with grow the bytes of the new
	// list (session 32): the embedder's look at the heap, which cancels
	// Ctx when it and grow more bytes are over.
	HeapCheck func(grow uint64)

	// Ctx is the run's context, which a pattern match of a long value
	// looks at (llmsh, longmatch.go); nil: none.
	Ctx context.Context

	// ProcSubst expands a process substitution node.
	ProcSubst func(*syntax.ProcSubst) (string, error)

	// TODO(v4): replace ReadDir with ReadDir2.

	// ReadDir is the older form of [ReadDir2], before io/fs.
	//
	// Deprecated: use ReadDir2 instead.
	ReadDir func(string) ([]fs.FileInfo, error)

	// ReadDir2 is used for file path globbing.
	// If nil, and [ReadDir] is nil as well, globbing is disabled.
	// Use [os.ReadDir] to use the filesystem directly.
	ReadDir2 func(string) ([]fs.DirEntry, error)

	// GlobStar corresponds to the shell option which allows globbing with "**".
	GlobStar bool

	// DotGlob corresponds to the shell option which allows filenames beginning
	// with a dot to be matched by a pattern which does not begin with a dot.
	DotGlob bool

	// GlobDots is set when bash's shopt globskipdots is off (llmsh): a
	// pattern that begins with a dot then matches "." and "..".
	GlobDots bool

	// NoCaseGlob corresponds to the shell option which causes case-insensitive
	// pattern matching in pathname expansion.
	NoCaseGlob bool

	// NullGlob corresponds to the shell option which allows globbing
	// patterns which match nothing to result in zero fields.
	NullGlob bool

	// NoUnset corresponds to the shell option which treats unset variables
	// as errors.
	NoUnset bool

	// ExtGlob corresponds to the shell option which allows using extended
	// pattern matching features when performing pathname expansion (globbing).
	ExtGlob bool

	// NoCaseMatch is bash's nocasematch, which also makes the pattern of
	// ${v/pat/rep} match without regard to case (llmsh).
	NoCaseMatch bool

	// FailGlob is bash's failglob: a pattern that matches nothing is
	// an error ([GlobError]). llmsh.
	FailGlob bool

	// NoBraceExpand is set +B (set +o braceexpand). llmsh.
	NoBraceExpand bool

	assignValue bool // llmsh: expanding an assignment's value (AssignValue)
	// declValue is set while expanding the value of a declaration
	// builtin's NAME=VALUE argument (DeclValue).
	declValue bool
	// rhsJoin is set while expanding an assignment's value or a
	// here-string, where bash joins some lists by IFS (rhsIFSJoin).
	rhsJoin bool

	// CondJoin is set while the runner expands the operands of [[ ]]
	// and a case command's word (llmsh: condSplitJoin).
	CondJoin bool

	// NoExtQuote is shopt -u extquote (llmsh): a $'…' in the word of a
	// double-quoted ${v:-…} (-, +, =, ?) is the text as written.
	NoExtQuote bool

	// PatsubReplacement is bash's option of that name: an unquoted & in
	// the replacement of ${v/pat/rep} stands for the matched text.
	PatsubReplacement bool

	// Posix is bash's POSIX mode (llmsh): an argument that looks like an
	// assignment (echo x=~) keeps its tildes after = and :.
	Posix bool

	// Warn, when not nil, reports a problem that bash reports on stderr
	// and goes on from (`a: bad array subscript` in an expansion,
	// `warning: r: circular name reference`).
	Warn func(msg string)

	// ReportError, when not nil, prints an expansion error that bash
	// reports and goes on from, the text left as it was: one in a
	// prompt string (PS4, ${v@P}). (llmsh)
	ReportError func(err error)

	// LineOffset is added to $LINENO: the line, in the script, before the
	// first line of the text running (eval text, a function that eval
	// defined). (llmsh)
	LineOffset int

	// ParseLocale is the locale in which bash read the text that runs
	// (llmsh): bash decodes $'…' as it parses a line, so that \u00e9
	// follows the locale of that time, not of the time it runs (an
	// LC_ALL=C earlier on the same line, or after a function was
	// defined, changes nothing). 0 is the locale as it is now, 1 one of
	// UTF-8, 2 C or POSIX.
	ParseLocale uint8

	// Text is the source text that the positions of the running code
	// refer to, when known: the blanks of an arithmetic expression's
	// text come from it, a tab as a tab, as bash quotes it (llmsh:
	// writeBlanks).
	Text string

	// PlainLineno says that LINENO was unset: it is a variable as any
	// other, no longer the line running (llmsh).
	PlainLineno bool

	// CmdNumber is the number of the script's top-level command lines
	// run before the current one, for the prompt escape \# (llmsh); -1
	// in a -c string, where bash counts none.
	CmdNumber int
	// Birth, when set, numbers a key added to an associative array
	// (llmsh: Variable.Born).
	Birth func() uint64

	// Jobs, when set, counts the shell's jobs, for the prompt escape \j
	// (llmsh).
	Jobs func() int
	// TimeFormat, when set, formats the time t as strftime(3) in the C
	// locale formats it, in the zone that tz (the value of TZ) names, for
	// the prompt escape \D{FORMAT} (llmsh).
	TimeFormat func(t time.Time, format, tz string) string

	bufferAlloc strings.Builder
	fieldAlloc  [4]fieldPart
	fieldsAlloc [4][]fieldPart

	ifs   string
	ifsOK bool // ifs is IFS's value (llmsh: looked up on first use, see ifsValue)

	// llmsh: the ${RANDOM} nodes that drew a number in the expansion
	// randNodeGen (drawRandom).
	randNodes            []*syntax.Lit
	randGen, randNodeGen uint64
	// llmsh: negWarned is the ${!x[-9]} whose element's bad subscript
	// was reported in the expansion negWarnedGen (resolveParam): bash
	// reports it once, though llmsh looks it up more than once.
	negWarned    *syntax.ParamExp
	negWarnedGen uint64
	// A pointer to a parameter expansion node, if we're inside one.
	// Necessary for ${LINENO}.
	curParam *syntax.ParamExp
	// curArray is the variable that curParam's nameref names, for
	// messages about its elements (llmsh: bash's name the array).
	curArray string

	// llmsh: gotFor is the ParamExp whose variable resolveParam looked
	// up last, found no nameref and left as it was; got is that
	// variable, which paramExpText takes instead of a second lookup.
	gotFor *syntax.ParamExp
	got    Variable

	// CmdLine, when not 0, is ${LINENO} in the words of the simple
	// command running: bash's line of that command (llmsh).
	CmdLine int

	// TrapLine, when not 0, is ${LINENO}: the line of the failing
	// command while its ERR trap runs (llmsh).
	TrapLine uint64

	// dblQuoted is true while a parameter expansion inside double
	// quotes or a here-document is expanded (llmsh).
	dblQuoted bool
	// hereDoc is true while a parameter expansion of a here-document's
	// body is expanded, where bash joins $* by spaces (llmsh).
	hereDoc bool
	// tildes says how a word's tilde prefixes expand (ArrayElemFields,
	// AssocValue; llmsh).
	tildes tildeMode

	// deferWord asks paramExp to leave the word of ${v:-WORD}, when it is
	// used, to the caller in deferred, which splits its parts (llmsh).
	deferWord bool
	deferred  *syntax.Word
	// quotedOps has wordField keep the quoting of the WORD of an
	// unquoted ${v:-WORD} (and -, +, :+) it uses, for a pattern or a
	// regular expression: [[ abc == ${v+\*} ]] is false, as in bash,
	// where the * is quoted (llmsh).
	quotedOps bool

	// markAt is set while the replacement of ${v/p/r} is expanded
	// under patsub_replacement (llmsh): a quoted list in it ("${a[@]}",
	// "$@") joins by spaces with each empty element after the first
	// marked (joinMarked, markNulls).
	markAt bool

	// splitting is set while wordFields runs: a nested call ($(<FILE)
	// expands FILE) does not use fieldAlloc and fieldsAlloc (llmsh).
	splitting bool

	// rawLits keeps the backslashes of unquoted literal text, for the
	// replacement of ${v/p/r}, which reads them itself (llmsh).
	rawLits bool

	// arithTexts keeps the text of arithmetic expressions without
	// expansions (llmsh; see ArithmEnd). A Config serves one runner.
	arithTexts map[arithKey]string

	// arithDepth is the recursion level of the arithmetic evaluation
	// under way (llmsh): a subscript read while a variable's value is
	// evaluated ($((y)) with y='x[y]') starts one level deeper, as
	// bash's one expr_depth counts every evaluation; arithOuter is the
	// text of that evaluation, which bash's message names when the next
	// level is one too many.
	arithDepth int
	arithOuter string

	// arithEv is the evaluation state ArithmText reuses while no other
	// evaluation of this Config holds it (llmsh: one allocation less for
	// each arithmetic expansion, two a round of for ((…))).
	arithEv *arithEval
}

// UnexpectedCommandError is returned if a command substitution is encountered
// when [Config.CmdSubst] is nil.
type UnexpectedCommandError struct {
	Node *syntax.CmdSubst
}

func (u UnexpectedCommandError) Error() string {
	return fmt.Sprintf("unexpected command substitution at %s", u.Node.Pos())
}

var zeroConfig = &Config{}

// TODO: note that prepareConfig is modifying the user's config in place,
// which doesn't feel right - we should make a copy.

func prepareConfig(cfg *Config) *Config {
	cfg = cmp.Or(cfg, zeroConfig)
	cfg.Env = cmp.Or(cfg.Env, FuncEnviron(func(string) string { return "" }))

	cfg.ifsOK = false // llmsh: looked up when used (ifsValue)
	cfg.randGen++     // llmsh: $RANDOM draws once per node (drawRandom)

	if cfg.ReadDir != nil && cfg.ReadDir2 == nil {
		cfg.ReadDir2 = func(path string) ([]fs.DirEntry, error) {
			infos, err := cfg.ReadDir(path)
			if err != nil {
				return nil, err
			}
			entries := make([]fs.DirEntry, len(infos))
			for i, info := range infos {
				entries[i] = fs.FileInfoToDirEntry(info)
			}
			return entries, nil
		}
	}
	return cfg
}

// ifsValue is IFS's value, looked up the first time it is needed after
// prepareConfig (llmsh): most expansions never need it (an assignment, a
// literal word), and the lookup was a tenth of a loop's time.
func (cfg *Config) ifsValue() string {
	if !cfg.ifsOK {
		cfg.ifs = " \t\n"
		if vr := cfg.Env.Get("IFS"); vr.IsSet() {
			cfg.ifs = vr.String()
		}
		cfg.ifsOK = true
	}
	return cfg.ifs
}

func (cfg *Config) ifsRune(r rune) bool {
	return strings.ContainsRune(cfg.ifsValue(), r)
}

// ifsWhitespace reports whether r is a space, tab, or newline present in IFS.
func (cfg *Config) ifsWhitespace(r rune) bool {
	return (r == ' ' || r == '\t' || r == '\n') && cfg.ifsRune(r)
}

func (cfg *Config) ifsJoin(strs []string) string {
	return cfg.joinValues(strs, cfg.ifsFirst()) // llmsh: bounded
}

// ifsFirst is the first character of IFS, which joins "$*": not its
// first byte, but in the C locale, where each byte is a character
// (llmsh, as bash's).
func (cfg *Config) ifsFirst() string {
	ifs := cfg.ifsValue()
	if ifs == "" {
		return ""
	}
	_, size := utf8.DecodeRuneInString(ifs)
	if cfg.byteLocale() {
		size = 1
	}
	return ifs[:size]
}

// DropBuffers lets go of what the last expansion left in the buffers
// that the next reuses (llmsh): the text it built, which is the value
// it gave, and the parts of the fields it split. A Config kept between
// runs kept them alive: a session that unset a variable a run over its
// memory bound had stored (a run's last assignment) freed none of its
// heap. Not while an expansion runs.
func (cfg *Config) DropBuffers() {
	cfg.bufferAlloc = strings.Builder{}
	clear(cfg.fieldAlloc[:])
	clear(cfg.fieldsAlloc[:])
}

func (cfg *Config) strBuilder() *strings.Builder {
	b := &cfg.bufferAlloc
	b.Reset()
	return b
}

func (cfg *Config) envGet(name string) string {
	return cfg.Env.Get(name).String()
}

func (cfg *Config) envSet(name, value string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	return wenv.Set(name, Variable{Set: true, Kind: String, Str: value})
}

// Literal expands a single shell word. It is similar to [Fields], but the result
// is a single string. This is the behavior when a word is used as the value in
// a shell variable assignment, for example.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Literal(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordField(word.Parts, quoteNone)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field) // llmsh: checked against MaxValue
}

// Document expands a single shell word as if it were a here-document body.
// It is similar to [Literal], but without brace expansion, tilde expansion, and
// globbing.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Document(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordField(word.Parts, quoteHeredoc)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field) // llmsh: checked against MaxValue
}

// Pattern expands a single shell word as a pattern, using [pattern.QuoteMeta]
// on any non-quoted parts of the input word. The result can be used on
// [pattern.Regexp] directly.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Pattern(cfg *Config, word *syntax.Word) (string, error) {
	pat, _, err := patternTrace(cfg, word, false) // llmsh: shared with PatternTrace
	return pat, err
}

// Format expands a format string with a number of arguments, following the
// shell's format specifications. These include printf(1), among others.
//
// The resulting string is returned, along with the number of arguments used.
// Note that the resulting string may contain null bytes, for example
// if the format string used `\x00`. The caller should terminate the string
// at the first null byte if needed, such as when expanding for `$'foo\x00bar'`.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Format(cfg *Config, format string, args []string) (string, int, error) {
	cfg = prepareConfig(cfg)
	sb := cfg.strBuilder()

	consumed, err := formatInto(sb, format, args)
	if err != nil {
		return "", 0, err
	}

	return sb.String(), consumed, err
}

func formatInto(sb *strings.Builder, format string, args []string) (int, error) {
	var fmts []byte
	initialArgs := len(args)

	for i := 0; i < len(format); i++ {
		// readDigits reads from 0 to max digits, either octal or
		// hexadecimal.
		readDigits := func(max int, hex bool) string {
			j := 0
			for ; j < max && i+j < len(format); j++ {
				c := format[i+j]
				if (c >= '0' && c <= '9') ||
					(hex && c >= 'a' && c <= 'f') ||
					(hex && c >= 'A' && c <= 'F') {
					// valid octal or hex char
				} else {
					break
				}
			}
			digits := format[i : i+j]
			i += j - 1 // -1 since the outer loop does i++
			return digits
		}
		c := format[i]
		switch {
		case c == '\\': // escaped
			i++
			if i >= len(format) {
				sb.WriteByte('\\')
				break
			}
			switch c = format[i]; c {
			case 'a': // bell
				sb.WriteByte('\a')
			case 'b': // backspace
				sb.WriteByte('\b')
			case 'e', 'E': // escape
				sb.WriteByte('\x1b')
			case 'f': // form feed
				sb.WriteByte('\f')
			case 'n': // new line
				sb.WriteByte('\n')
			case 'r': // carriage return
				sb.WriteByte('\r')
			case 't': // horizontal tab
				sb.WriteByte('\t')
			case 'v': // vertical tab
				sb.WriteByte('\v')
			case '\\', '\'', '"', '?': // just the character
				sb.WriteByte(c)
			case '0', '1', '2', '3', '4', '5', '6', '7':
				digits := readDigits(3, false)
				// llmsh: the low byte of the value, as bash's
				// ansicstr (\400 is a NUL, \500 is @).
				n, _ := strconv.ParseUint(digits, 8, 16)
				sb.WriteByte(byte(n))
			case 'x', 'u', 'U':
				i++
				max := 2
				switch c {
				case 'u':
					max = 4
				case 'U':
					max = 8
				}
				digits := readDigits(max, true)
				if len(digits) > 0 {
					// can't error
					n, _ := strconv.ParseUint(digits, 16, 32)
					if c == 'x' {
						// always as a single byte
						sb.WriteByte(byte(n))
					} else {
						// llmsh: bash's u32toutf8 (surrogates kept).
						sb.Write(appendBashUTF8(nil, uint32(n)))
					}
					break
				}
				fallthrough
			default: // no escape sequence
				sb.WriteByte('\\')
				sb.WriteByte(c)
			}
		case len(fmts) > 0:
			switch c {
			case '%':
				sb.WriteByte('%')
				fmts = nil
			case 'c':
				var b byte
				if len(args) > 0 {
					arg := ""
					arg, args = args[0], args[1:]
					if len(arg) > 0 {
						b = arg[0]
					}
				}
				sb.WriteByte(b)
				fmts = nil
			case '+', '-', ' ':
				if len(fmts) > 1 {
					return 0, fmt.Errorf("invalid format char: %c", c)
				}
				fmts = append(fmts, c)
			case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				fmts = append(fmts, c)
			case 's', 'b', 'd', 'i', 'u', 'o', 'x':
				arg := ""
				if len(args) > 0 {
					arg, args = args[0], args[1:]
				}
				var farg any
				if c == 'b' {
					// Passing in nil for args ensures that % format
					// strings aren't processed; only escape sequences
					// will be handled.
					_, err := formatInto(sb, arg, nil)
					if err != nil {
						return 0, err
					}
				} else if c != 's' {
					n, _ := strconv.ParseInt(arg, 0, 0)
					if c == 'i' || c == 'd' {
						farg = int(n)
					} else {
						farg = uint(n)
					}
					if c == 'i' || c == 'u' {
						c = 'd'
					}
				} else {
					farg = arg
				}
				if farg != nil {
					fmts = append(fmts, c)
					fmt.Fprintf(sb, string(fmts), farg)
				}
				fmts = nil
			default:
				return 0, fmt.Errorf("invalid format char: %c", c)
			}
		case args != nil && c == '%':
			// if args == nil, we are not doing format
			// arguments
			fmts = []byte{c}
		default:
			sb.WriteByte(c)
		}
	}
	if len(fmts) > 0 {
		return 0, fmt.Errorf("missing format char")
	}
	return initialArgs - len(args), nil
}

// fieldJoin joins a field's parts; llmsh: a field that would pass
// MaxValue is ValueTooLargeError, before it is built.
func (cfg *Config) fieldJoin(parts []fieldPart) (string, error) {
	switch len(parts) {
	case 0:
		return "", nil
	case 1: // short-cut without a string copy
		return cfg.checkValue(parts[0].val)
	}
	n := 0
	for _, part := range parts {
		if n += len(part.val); n > cfg.MaxValue && cfg.MaxValue > 0 {
			return "", cfg.checkSize(n)
		}
	}
	sb := cfg.strBuilder()
	sb.Grow(n)
	for _, part := range parts {
		sb.WriteString(part.val)
	}
	return sb.String(), nil
}

func (cfg *Config) escapedGlobField(parts []fieldPart) (escaped string, glob bool) {
	candidate := false
	for _, part := range parts {
		if part.quote == quoteNone && (strings.ContainsAny(part.val, "*?[") || strings.Contains(part.val, "(")) {
			candidate = true
			break
		}
	}
	if !candidate {
		return "", false
	}
	sb := cfg.strBuilder()
	for _, part := range parts {
		if part.quote > quoteNone {
			// llmsh: extended patterns' characters too
			sb.WriteString(internal.BashQuoteMeta(part.val))
		} else {
			sb.WriteString(part.val)
		}
	}
	// Check the entire escaped word, as a bracket expression could span
	// multiple unquoted parts, such as `[a$x` where x holds "]".
	escaped = sb.String()
	if internal.BashHasMeta(escaped, cfg.globMode()) || extOpenUnquoted(escaped) {
		return escaped, true
	}
	return "", false
}

// extOpenUnquoted reports whether pat holds an unquoted +(, @( or !(:
// bash's glob_pattern_p takes such a word for a pattern whatever extglob
// says, and without extglob matches it as text (llmsh: x='@(a|b)';
// shopt -s nullglob; echo $x prints nothing where no file has that name;
// with extglob, +(b unclosed is no extended pattern but still one).
func extOpenUnquoted(pat string) bool {
	for i := 0; i+1 < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '+', '@', '!':
			if pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// globMode is the pattern mode of pathname expansion (llmsh).
func (cfg *Config) globMode() internal.PatMode {
	mode := internal.PatFilename
	if cfg.DotGlob { // llmsh: a GLOBIGNORE assignment sets it, as bash
		mode |= internal.PatDotGlob
	}
	if cfg.NoCaseGlob {
		mode |= internal.PatNoCase
	}
	if cfg.ExtGlob {
		mode |= internal.PatExtGlob
	}
	return mode
}

// Fields is a pre-iterators API which now wraps [FieldsSeq].
// (llmsh: it shares FieldsSeq's work but not its closures, which cost
// several allocations per command: the callback it passes does not
// escape, and a word's brace expansion is listed before its fields are
// made, in the same order.)
func Fields(cfg *Config, words ...*syntax.Word) ([]string, error) {
	if cfg != nil {
		if fields, ok, err := cfg.literalFields(words); ok {
			return fields, err
		}
	}
	cfg = prepareConfig(cfg)
	dir := cfg.envGet("PWD")
	var fields []string
	var ferr error
	add := func(s string, err error) bool {
		if err == nil {
			_, err = cfg.checkValue(s)
		}
		if err != nil {
			ferr = err
			return false
		}
		if fields == nil {
			fields = make([]string, 0, len(words)) // most words make one field
		} else if n := len(fields); n == cap(fields) && n >= 256 {
			grow := cfg.listGrowth(n, stringListSize) // llmsh: doubling (splitter.emit)
			if cfg.Ctx != nil && cfg.Ctx.Err() != nil {
				ferr = cfg.Ctx.Err()
				return false
			}
			fields = slices.Grow(fields, grow)
		}
		fields = append(fields, s)
		if len(fields)%fieldsCheck == 0 && cfg.Ctx != nil && cfg.Ctx.Err() != nil {
			ferr = cfg.Ctx.Err() // llmsh: stopped (split.go's fieldsCheck)
			return false
		}
		return true
	}
	for _, word := range words {
		if cfg.NoBraceExpand || !hasBraceLit(word) {
			if cfg.wordFieldsYield(dir, word, add) {
				break
			}
			continue
		}
		ws, err := cfg.braceWords(word)
		for _, w := range ws {
			if cfg.wordFieldsYield(dir, w, add) {
				break
			}
		}
		if ferr == nil && err != nil {
			ferr = err
		}
		if ferr != nil {
			break
		}
	}
	if ferr != nil {
		return nil, ferr
	}
	return fields, nil
}

// braceWords lists the words of word's brace expansion, as [FieldsSeq]
// expands them, up to an error (llmsh).
func (cfg *Config) braceWords(word *syntax.Word) ([]*syntax.Word, error) {
	cp := *word // SplitBraces replaces the Parts slice
	if !syntax.SplitBraces(&cp) {
		return []*syntax.Word{&cp}, nil
	}
	var ws []*syntax.Word
	for w, err := range BracesSeq(cfg, &cp) {
		if err != nil {
			return ws, err
		}
		if !emptyLitWord(w) {
			ws = append(ws, w)
		}
	}
	return ws, nil
}

// FieldsSeq expands a number of words as if they were arguments in a shell
// command. This includes brace expansion, tilde expansion, parameter expansion,
// command substitution, arithmetic expansion, quote removal, and globbing.
func FieldsSeq(cfg *Config, words ...*syntax.Word) iter.Seq2[string, error] {
	cfg = prepareConfig(cfg)
	return func(yield func(string, error) bool) { cfg.fieldsOf(words, yield) }
}

// literalFields is the fields of words that are all plain literals, each
// its own field (llmsh): a command such as `:` or `cat file` needs no
// lookup of IFS and PWD. ok is false when a word has an expansion,
// quotes, or a character that may glob, brace-expand, escape or tilde-
// expand (or an extglob's parenthesis).
func (cfg *Config) literalFields(words []*syntax.Word) (fields []string, ok bool, err error) {
	for _, w := range words {
		if len(w.Parts) != 1 {
			return nil, false, nil
		}
		lit, isLit := w.Parts[0].(*syntax.Lit)
		if !isLit || strings.ContainsAny(lit.Value, "*?[]\\{}~()") {
			return nil, false, nil
		}
	}
	fields = make([]string, len(words))
	for i, w := range words {
		s := w.Parts[0].(*syntax.Lit).Value
		if _, err := cfg.checkValue(s); err != nil {
			return nil, true, err
		}
		fields[i] = s
	}
	return fields, true, nil
}

// fieldsOf is [FieldsSeq]'s work: it yields each field of words.
func (cfg *Config) fieldsOf(words []*syntax.Word, yield func(string, error) bool) {
	dir := cfg.envGet("PWD")
	for _, word := range words {
		if cfg.NoBraceExpand || !hasBraceLit(word) {
			if cfg.wordFieldsYield(dir, word, yield) {
				return
			}
			continue
		}
		word := *word // make a copy, since SplitBraces replaces the Parts slice
		if !syntax.SplitBraces(&word) {
			if cfg.wordFieldsYield(dir, &word, yield) {
				return
			}
			continue
		}
		for w, err := range BracesSeq(cfg, &word) {
			if err != nil {
				yield("", err)
				return
			}
			if emptyLitWord(w) {
				continue // llmsh: {a,} gives "a" alone, as in bash
			}
			if cfg.wordFieldsYield(dir, w, yield) {
				return
			}
		}
	}
}

// hasBraceLit reports whether a literal part of w holds a '{', without
// which [syntax.SplitBraces] leaves w as it is (llmsh: the copy of the
// word that SplitBraces needs is made only then).
func hasBraceLit(w *syntax.Word) bool {
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok && strings.Contains(lit.Value, "{") {
			return true
		}
	}
	return false
}

// wordFieldsYield yields the fields of one word, globbed; it reports
// whether to stop.
func (cfg *Config) wordFieldsYield(dir string, w *syntax.Word, yield func(string, error) bool) (stop bool) {
	wfields, err := cfg.wordFields(w.Parts)
	if err != nil {
		yield("", err)
		return true
	}
	for _, field := range wfields {
		path, doGlob := cfg.escapedGlobField(field)
		if doGlob && cfg.ReadDir2 != nil {
			// Note that globbing requires keeping a slice state, so it doesn't
			// really benefit from using an iterator.
			matches, err := cfg.glob(dir, path)
			matches = cfg.globIgnore(matches) // llmsh
			if err != nil {
				// We avoid [errors.As] as it allocates,
				// and we know that [Config.glob] returns [pattern.Regexp] errors without wrapping.
				if _, ok := err.(*pattern.SyntaxError); !ok {
					yield("", err)
					return true
				}
			} else if len(matches) == 0 && cfg.FailGlob {
				// llmsh: bash's failglob
				pat, err := cfg.fieldJoin(field)
				if err == nil {
					err = GlobError{Pattern: pat}
				}
				yield("", err)
				return true
			} else if len(matches) > 0 || cfg.NullGlob {
				for _, m := range matches {
					if !yield(m, nil) {
						return true
					}
				}
				continue
			}
		}
		s, err := cfg.fieldJoin(field)
		if err != nil {
			yield("", err)
			return true
		}
		if !yield(s, nil) {
			return true
		}
	}
	return false
}

type fieldPart struct {
	val   string
	quote quoteLevel
	// expanded is set for the text of an expansion (llmsh): no quote
	// removal applies to it (replTemplate).
	expanded bool
}

type quoteLevel uint

const (
	quoteNone quoteLevel = iota
	quoteDouble
	quoteHeredoc
	quoteSingle
)

func (cfg *Config) wordField(wps []syntax.WordPart, ql quoteLevel) (_ []fieldPart, err error) {
	defer catchValue(&err) // llmsh: a join past MaxValue
	defer func() {
		if err != nil {
			err = quotedBad(wps, err) // llmsh: names the text of wps
		}
	}()
	var field []fieldPart
	for i, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.Lit:
			s := wp.Value
			if i == 0 && ql == quoteNone && cfg.tildes != tildeNone {
				if prefix, rest := cfg.expandUser(s, len(wps) > 1); prefix != "" || rest != s {
					// llmsh: the expansion is quoted text, as in bash:
					// [[ $p == ~/a ]] matches a home holding glob
					// characters as written, set -x traces it escaped.
					if prefix != "" {
						field = append(field, fieldPart{quote: quoteSingle, val: prefix})
					}
					s = rest
				}
			}
			if cfg.assignValue && ql == quoteNone {
				s = cfg.colonTilde(s, i == len(wps)-1) // llmsh
			}
			if (ql == quoteDouble || ql == quoteHeredoc) && strings.Contains(s, "\\") {
				sb := cfg.strBuilder()
				for i := 0; i < len(s); i++ {
					b := s[i]
					if b == '\\' && i+1 < len(s) {
						switch s[i+1] {
						case '"':
							if ql != quoteDouble {
								break
							}
							fallthrough
						case '\\', '$', '`': // special chars
							i++
							b = s[i] // write the special char, skipping the backslash
						}
					}
					sb.WriteByte(b)
				}
				s = sb.String()
			}
			if ql == quoteNone && !cfg.rawLits && strings.Contains(s, "\\") {
				// llmsh: quote removal, as bash does it (upstream kept
				// the backslashes of an assignment's value, a
				// here-string, a case word or a redirection's file).
				field = cfg.unescapeLit(field, s)
				continue
			}
			s, _, _ = strings.Cut(s, "\x00") // TODO: why is this needed?
			field = append(field, fieldPart{val: s})
		case *syntax.SglQuoted:
			fp := fieldPart{quote: quoteSingle, val: wp.Value}
			switch {
			case wp.Dollar && cfg.hereDoc:
				// llmsh: a here-document's ${u:-$'\t'} is the text
				// $'\t', as bash (which reads no $'…' there).
				fp.val = "$'" + wp.Value + "'"
			case wp.Dollar:
				fp.val = dollarSingle(cfg, fp.val)
			}
			field = append(field, fp)
		case *syntax.DblQuoted:
			wfield, err := cfg.wordField(wp.Parts, quoteDouble)
			if err != nil {
				return nil, err
			}
			for _, part := range wfield {
				part.quote = quoteDouble
				field = append(field, part)
			}
		case *syntax.ParamExp:
			old, oldRaw, oldHere := cfg.dblQuoted, cfg.rawLits, cfg.hereDoc
			cfg.dblQuoted, cfg.rawLits = ql == quoteDouble || ql == quoteHeredoc, false // llmsh: a here-document too
			cfg.hereDoc = ql == quoteHeredoc
			deferOp := cfg.quotedOps && ql == quoteNone && wordOp(wp)
			cfg.deferWord = deferOp
			val, err := cfg.paramExp(wp)
			cfg.dblQuoted, cfg.rawLits, cfg.hereDoc = old, oldRaw, oldHere
			cfg.deferWord = false
			w := cfg.deferred
			cfg.deferred = nil
			if err != nil {
				return nil, err
			}
			if w != nil && deferOp {
				// llmsh: the WORD used, with its quoting (quotedOps).
				wfield, err := cfg.wordField(w.Parts, quoteNone)
				if err != nil {
					return nil, err
				}
				field = append(field, wfield...)
				continue
			}
			field = append(field, fieldPart{val: val, expanded: true})
		case *syntax.CmdSubst:
			val, err := cfg.cmdSubst(wp)
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: val, expanded: true})
		case *syntax.ArithmExp:
			n, err := cfg.arithmExp(wp)
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: strconv.Itoa(n)})
		case *syntax.ProcSubst:
			path, err := cfg.ProcSubst(wp)
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: path})
		case *syntax.ExtGlob:
			// Like how [Config.wordFields] deals with [syntax.ExtGlob],
			// except that we allow these through even when [Config.ExtGlob]
			// is false, as it only applies to pathname expansion.
			parts, err := cfg.extGlobParts(wp)
			if err != nil {
				return nil, err
			}
			field = append(field, parts...)
		default:
			panic(fmt.Sprintf("unhandled word part: %T", wp))
		}
	}
	return field, nil
}

func (cfg *Config) cmdSubst(cs *syntax.CmdSubst) (string, error) {
	if cfg.CmdSubst == nil {
		return "", UnexpectedCommandError{Node: cs}
	}
	if cfg.tildes != tildeAll {
		// llmsh: the commands' own words expand every tilde.
		old := cfg.tildes
		cfg.tildes = tildeAll
		defer func() { cfg.tildes = old }()
	}
	// llmsh: a builder of its own, not the config's: $(<FILE) expands
	// FILE with this config while the substitution writes.
	sb := new(strings.Builder)
	max := cfg.MaxValue
	if max <= 0 {
		max = math.MaxInt
	}
	// llmsh: the output past MaxValue fails the writer (the command
	// stops on its write error) and the substitution; the writer is
	// safe for the jobs that write to it with the shell.
	lw := &valueWriter{sb: sb, max: max}
	err := cfg.CmdSubst(lw, cs)
	out, over := lw.take()
	if over {
		return "", ValueTooLargeError{Limit: cfg.MaxValue}
	}
	if err != nil {
		return "", err
	}
	if strings.IndexByte(out, 0) >= 0 {
		// llmsh: bash warns once a substitution, then drops them.
		if cfg.Warn != nil {
			cfg.Warn("warning: command substitution: ignored null byte in input")
		}
		out = dropNULs(out)
	}
	return strings.TrimRight(out, "\n"), nil
}

// dropNULs removes the NUL bytes of a substitution's output, as bash does
// (llmsh): strings.ReplaceAll takes a step for each, so the NULs of
// `$(head -c 250M /dev/zero)` took 3.2 s after the output was read, which
// no limit could stop (the whole substitution 7.5 s; now 4.3 s).
func dropNULs(s string) string {
	i := strings.IndexByte(s, 0)
	if i < 0 {
		return s
	}
	b := make([]byte, i, len(s)-1)
	copy(b, s[:i])
	for k := i + 1; k < len(s); k++ {
		if c := s[k]; c != 0 {
			b = append(b, c)
		}
	}
	return string(b)
}

// listElems returns the elements of a "*" or "@" expansion of a list, like
// $@ or ${arr[*]}, with star set for the "*" forms which join into a single
// field when quoted. ok is false for any other parameter expansion.
// err is an error of its slice's arithmetic.
func (cfg *Config) listElems(pe *syntax.ParamExp) (elems []string, star, ok bool, err error) {
	if pe.Param == nil { // e.g. zsh's ${}; paramExp rejects it
		return nil, false, false, nil
	}
	cfg.drawRandom(pe) // llmsh
	// llmsh: "${!x}" with x=a[@], a nameref to an array.
	pe, err = cfg.resolveProbe(pe)
	if err != nil || pe.Excl || pe.Joined {
		return nil, false, false, nil
	}
	switch name := pe.Param.Value; name {
	case "*", "@":
		elems, err := cfg.sliceElems(pe, cfg.Env.Get(name).List, nil, slicePositional)
		return elems, name == "*", true, err
	}
	switch lit := nodeLit(pe.Index); lit {
	case "@", "*":
		vr := cfg.Env.Get(pe.Param.Value)
		if _, v := vr.Resolve(cfg.Env); v.Kind != NameRef {
			cfg.selfRefWarn(pe.Param.Value, vr, 2)
			vr = v
		}
		switch vr.Kind {
		case Indexed:
			elems, err := cfg.sliceElems(pe, vr.List, vr.Indexes, sliceArray)
			return elems, lit == "*", true, err
		case Associative:
			elems, err := cfg.sliceElems(pe, cfg.assocValues(vr), nil, sliceAssoc)
			return elems, lit == "*", true, err
		case String:
			// ${s[@]} of a scalar: its one element (sliced, its text:
			// paramExp).
			if vr.IsSet() && pe.Slice == nil {
				return []string{vr.Str}, lit == "*", true, nil
			}
		}
	}
	return nil, false, false, nil
}

// quotedElemFields returns the list of elements resulting from a quoted
// parameter expansion that should be treated especially, like "${foo[@]}".
// The result is nil for any other parameter expansion.
func (cfg *Config) quotedElemFields(pe *syntax.ParamExp) ([]string, error) {
	if pe == nil || pe.Param == nil || pe.Length || pe.Width || pe.IsSet {
		return nil, nil
	}
	// llmsh: "${!x}" with x=a[@], a nameref to an array.
	pe, err := cfg.resolveProbe(pe)
	if err != nil || pe.Joined {
		return nil, err
	}
	name := pe.Param.Value
	if pe.Excl {
		switch pe.Names {
		case syntax.NamesPrefixWords: // "${!prefix@}"
			// llmsh: no match is zero fields, not one empty one.
			return append([]string{}, cfg.namesByPrefix(pe.Param.Value)...), nil
		case syntax.NamesPrefix: // "${!prefix*}"
			return nil, nil
		}
		switch nodeLit(pe.Index) {
		case "@": // "${!name[@]}"
			vr := cfg.Env.Get(name)
			if _, v := vr.Resolve(cfg.Env); v.Kind != NameRef {
				cfg.selfRefWarn(name, vr, 1)
				vr = v // llmsh: the keys of a nameref's array
			}
			switch vr.Kind {
			case Indexed:
				return append([]string{}, vr.indexedKeys()...), nil
			case Associative:
				return append([]string{}, cfg.assocKeys(vr)...), nil
			}
			if !vr.IsSet() {
				return []string{}, nil // llmsh: no variable, no fields
			}
		}
		return nil, nil
	}
	if fields, ok, err := cfg.wholeListOp(pe); ok {
		return fields, err
	}
	if pe.Exp != nil && (pe.Exp.Op == syntax.ErrorUnset || pe.Exp.Op == syntax.ErrorUnsetOrNull ||
		pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull) &&
		!pe.Excl && pe.Names == 0 && (name == "@" || name == "*" || allIndex(pe.Index)) {
		// llmsh: "${@:?W}", "${a[*]?W}": the list's error when it is
		// unset (no elements) or null (they join into nothing), as
		// unquoted; "${a[@]=W}", "${@:=W}" too, and "${m[@]=W}" of
		// an associative array assigns its key @ first.
		if _, err := cfg.paramExp(pe); err != nil {
			return nil, err
		}
	}
	if elems, star, ok, err := cfg.listElems(pe); err != nil {
		return nil, err
	} else if ok {
		// Operators like "${foo[@]#prefix}" apply to each element.
		elems, err := cfg.perElemOps(pe, elems)
		if err != nil {
			return nil, err
		}
		if star {
			return []string{cfg.ifsJoin(elems)}, nil
		}
		if ifs := cfg.ifsValue(); len(elems) > 0 && pe.Index == nil && pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps &&
			nodeLit(pe.Exp.Word) == "A" && (ifs == "" || strings.Contains(ifs, " ")) {
			// llmsh: "${@@A}" with IFS unset, empty or holding a
			// space: set, --, then a field per parameter, as bash
			// (as "${a[@]@A}": wholeListOp).
			return append(strings.SplitN(elems[0], " ", 3), elems[1:]...), nil
		}
		if elems == nil {
			// llmsh: an array with no storage yet (declare -a x,
			// read -a x of an empty line) is a list of none too.
			elems = []string{}
		}
		return elems, nil
	}
	vr := cfg.Env.Get(name)
	if _, v := vr.Resolve(cfg.Env); vr.Kind == NameRef && v.Kind != NameRef {
		vr = v // llmsh: a nameref to an unset variable
	}
	if nodeLit(pe.Index) == "@" && !vr.IsSet() {
		// An unset "${name[@]}" produces zero fields, like an empty array.
		return []string{}, nil
	}
	return nil, nil
}

// sliceKind says how sliceElems counts a list's positions.
type sliceKind uint8

const (
	sliceList       sliceKind = iota // an indexed array or a scalar
	slicePositional                  // $@ and $*, $0 first
	sliceAssoc                       // an associative array's values
	sliceArray                       // an indexed array's values (llmsh)
)

func positionalIf(b bool) sliceKind {
	if b {
		return slicePositional
	}
	return sliceArray
}

// sliceElems applies ${var:offset:length} slicing to a list of elements.
// When positional is true, $0 is prepended to the list before slicing.
// In bash, positional parameter offsets ($@ and $*) are 1-based and
// offset 0 includes $0 (the shell or script name). Negative offsets
// count from $# + 1, so $0 is reachable via large enough negative values.
// A non-nil indexes records the index of each element in a sparse array;
// see [Variable.Indexes]. An associative array's values (kind
// sliceAssoc) are counted from 1 too, offset 0 being the same as 1, as
// bash counts them.
func (cfg *Config) sliceElems(pe *syntax.ParamExp, elems []string, indexes []int, kind sliceKind) ([]string, error) {
	positional := kind == slicePositional
	if pe.Slice == nil || len(elems) == 0 && !positional {
		return elems, nil // llmsh: nothing to slice, nothing evaluated
	}
	if positional {
		elems = append([]string{cfg.Env.Get("0").Str}, elems...)
	}
	slicePos := func(n int) int {
		if n < 0 {
			n = len(elems) + n
			if n < 0 {
				n = len(elems)
			}
		} else if n > len(elems) {
			n = len(elems)
		}
		return n
	}
	if pe.Slice.Offset != nil {
		offset, err := cfg.sliceArithm(pe, pe.Slice.Offset)
		if err != nil {
			return nil, err
		}
		if len(indexes) > 0 {
			// Sparse arrays slice by index: a negative offset counts
			// from one past the maximum index, and the result begins
			// with the first element whose index is at least the offset.
			if offset < 0 {
				offset += indexes[len(indexes)-1] + 1
				if offset < 0 {
					offset = indexes[len(indexes)-1] + 1
				}
			}
			if offset > indexes[len(indexes)-1] {
				// llmsh: past the last index, nothing, and the
				// length is not evaluated, as bash.
				return []string{}, nil
			}
			pos, _ := slices.BinarySearch(indexes, offset)
			elems = elems[pos:]
		} else {
			if kind == sliceAssoc {
				// llmsh: bash's positions of an associative array;
				// one before the first is the first.
				// Further back is nothing, with no length error.
				if offset > 0 {
					offset--
				} else if offset+len(elems) == -1 {
					offset = 0
				}
			}
			last := len(elems) // the last position that evaluates the length
			if kind == sliceAssoc || kind == sliceArray {
				last-- // (bash: an array's maximum index)
			}
			if offset > last || offset < 0 && offset+len(elems) < 0 {
				return []string{}, nil // llmsh: out of range, nothing (no length error)
			}
			elems = elems[slicePos(offset):]
		}
	}
	if pe.Slice.Length != nil {
		length, err := cfg.sliceArithm(pe, pe.Slice.Length)
		if err != nil {
			return nil, err
		}
		if length < 0 {
			// llmsh: a list's length cannot count from its end (bash).
			return nil, ParamError{Msg: sliceLenText(pe, length) + ": substring expression < 0"}
		}
		if length == 0 && kind == sliceAssoc && len(elems) > 0 {
			// llmsh: bash's assoc_subrange keeps the first
			// element for a length of 0 (${m[@]:0:0} is one value).
			length = 1
		}
		elems = elems[:slicePos(length)]
	}
	return elems, nil
}

// sliceArithm evaluates the offset or length of a slice; an error names
// the parameter as written, as bash's does: "a[@]: 1:1: syntax error ...".
// sliceLenText is how bash's "substring expression < 0" names pe's
// length n: as written (llmsh).
func sliceLenText(pe *syntax.ParamExp, n int) string {
	if pe.Slice.LengthText != "" {
		return pe.Slice.LengthText
	}
	return strconv.Itoa(n)
}

func (cfg *Config) sliceArithm(pe *syntax.ParamExp, expr syntax.ArithmExpr) (int, error) {
	n, inner, err := arithmEnd(cfg, expr, syntax.Pos{})
	var ae *ArithmError
	if err != nil && !inner && errors.As(err, &ae) {
		// llmsh: an error of the offset's own expression names the
		// parameter; one of an expansion in it ($((1/0))) does not.
		name := pe.Param.Value
		if pe.Index != nil {
			var b strings.Builder
			if err := syntax.NewPrinter().Print(&b, pe.Index); err == nil {
				name += "[" + b.String() + "]"
			}
		}
		e := *ae
		e.Expr = name + ": " + e.Expr
		return 0, &e
	}
	return n, err
}

func (cfg *Config) expandUser(field string, moreFields bool) (prefix, rest string) {
	name, ok := strings.CutPrefix(field, "~")
	if !ok {
		// No tilde prefix to expand, e.g. "foo".
		return "", field
	}
	i := strings.IndexByte(name, '/')
	if i < 0 && moreFields {
		// There is a tilde prefix, but followed by more fields, e.g. "~'foo'".
		// We only proceed if an unquoted slash was found in this field, e.g. "~/'foo'".
		return "", field
	}
	if i >= 0 {
		rest = name[i:]
		name = name[:i]
	}
	// llmsh: a ':' ends the prefix too (bash's tilde suffix): ~:x is $HOME:x.
	if j := strings.IndexByte(name, ':'); j >= 0 {
		rest = name[j:] + rest
		name = name[:j]
	}
	// llmsh: ~+ is $PWD and ~- is $OLDPWD, as in bash.
	switch name {
	case "+", "-":
		v := "PWD"
		if name == "-" {
			v = "OLDPWD"
		}
		if vr := cfg.Env.Get(v); vr.IsSet() {
			return vr.String(), rest
		}
		return "", field
	}
	if dir, ok := cfg.dirStackTilde(name); ok {
		return dir, rest
	}
	if name == "" {
		// Current user; try via "HOME", otherwise fall back to the
		// system's appropriate home dir env var. Don't use os/user, as
		// that's overkill. We can't use [os.UserHomeDir], because we want
		// to use cfg.Env, and we always want to check "HOME" first.

		if vr := cfg.Env.Get("HOME"); vr.IsSet() {
			return vr.String(), rest
		}

		if runtime.GOOS == "windows" {
			if vr := cfg.Env.Get("USERPROFILE"); vr.IsSet() {
				return vr.String(), rest
			}
		}
		// llmsh: HOME unset, bash gives the user's home from the user
		// database; the environment answers "HOME " (no name) for it.
		if vr := cfg.Env.Get("HOME "); vr.IsSet() {
			return vr.String(), rest
		}
		return "", field
	}

	// Not the current user; try via "HOME <name>". llmsh: there is no
	// other user database (upstream fell back to os/user, the host's);
	// an unknown user's ~name stays as written, as in bash.
	if vr := cfg.Env.Get("HOME " + name); vr.IsSet() {
		return vr.String(), rest
	}
	return "", field
}

// findAllIndex yields the matches of pat in name as
// regexp.FindAllStringIndex finds them (at most n; all if n < 0).
// llmsh: one at a time, since a list of every match of ${x//?/y} in a
// long value takes 40 bytes per byte of it.
func (cfg *Config) findAllIndex(pat, name string, n int) func(yield func(a, b int) bool) {
	if pat != "" && !strings.ContainsAny(pat, `*?[]\`) {
		// llmsh: a pattern without a special character is its own text:
		// found by strings.Index, without translating and compiling it.
		return func(yield func(a, b int) bool) {
			for pos, i := 0, 0; n < 0 || i < n; i++ {
				if i&0xfff == 0xfff {
					cfg.mustGoOn() // llmsh: millions of matches
				}
				k := strings.Index(name[pos:], pat)
				if k < 0 || !yield(pos+k, pos+k+len(pat)) {
					return
				}
				pos += k + len(pat)
			}
		}
	}
	return func(yield func(a, b int) bool) {
		expr, err := pattern.Regexp(pat, 0)
		if err != nil {
			return
		}
		rx := cachedRegexp(expr)
		// The expression has no anchors and nothing that looks behind,
		// so a search from pos in name[pos:] is the one FindAll makes.
		prevEnd := -1
		for pos, i, k := 0, 0, 0; (n < 0 || i < n) && pos <= len(name); k++ {
			if k&0xfff == 0xfff {
				cfg.mustGoOn() // llmsh: longmatch.go
			}
			loc := cfg.findFrom(rx, name, pos)
			if loc == nil {
				return
			}
			a, b := loc[0], loc[1]
			accept := true
			if b == pos {
				// An empty match: not one abutting the previous
				// match; the search goes on after the next character.
				accept = a != prevEnd
				if pos < len(name) {
					_, size := utf8.DecodeRuneInString(name[pos:])
					pos += size
				} else {
					pos++
				}
			} else {
				pos = b
			}
			prevEnd = b
			if accept {
				if !yield(a, b) {
					return
				}
				i++
			}
		}
	}
}

var (
	rxGlobStar        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^/.][^/]*$`) })
	rxGlobStarDotGlob = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^/]*$`) })
)

// pathJoin2 is a simpler version of [filepath.Join] without cleaning the result,
// since that's needed for globbing.
func pathJoin2(elem1, elem2 string) string {
	if elem1 == "" {
		return elem2
	}
	if strings.HasSuffix(elem1, string(filepath.Separator)) {
		return elem1 + elem2
	}
	return elem1 + string(filepath.Separator) + elem2
}

// pathSplit splits a file path into its elements, retaining empty ones. Before
// splitting, slashes are replaced with [filepath.Separator], so that splitting
// Unix paths on Windows works as well.
func pathSplit(path string) []string {
	path = filepath.FromSlash(path)
	return strings.Split(path, string(filepath.Separator))
}

func (cfg *Config) glob(base, pat string) ([]string, error) {
	parts := pathSplit(pat)
	matches := []string{""}
	if filepath.IsAbs(pat) {
		if parts[0] == "" {
			// unix-like
			matches[0] = string(filepath.Separator)
		} else {
			// windows (for some reason it won't work without the
			// trailing separator)
			matches[0] = parts[0] + string(filepath.Separator)
		}
		parts = parts[1:]
	}
	// llmsh: a last ** after another gives its directories bare, as one
	// after a pattern does (`a/**/**` is `a a/b`, `a/**` is `a/ a/b`).
	lastTwice := false
	if cfg.GlobStar {
		lastTwice = len(parts) > 1 && parts[len(parts)-1] == "**" && parts[len(parts)-2] == "**"
		// llmsh: consecutive ** components are one, as bash reads them
		// (**/**/ lists each directory once).
		parts = slices.CompactFunc(parts, func(a, b string) bool { return a == "**" && b == "**" })
	}
	// TODO: as an optimization, we could do chunks of the path all at once,
	// like doing a single stat for "/foo/bar" in "/foo/bar/*".

	// TODO: Another optimization would be to reduce the number of ReadDir2 calls.
	// For example, /foo/* can end up doing one duplicate call:
	//
	//    ReadDir2("/foo") to ensure that "/foo/" exists and only matches a directory
	//    ReadDir2("/foo") glob "*"

	// llmsh: the directories before the first component with a pattern
	// keep their slashes as written (`d//*` is `d//a`, as bash's), but
	// for the leading one (verb is that prefix, cut the joined one).
	verb, cut, seenMeta := matches[0], "", false
	for i, part := range parts {
		// Keep around for debugging.
		// log.Printf("matches %q part %d %q", matches, i, part)

		wantDir := i < len(parts)-1
		if !seenMeta {
			if internal.BashHasMeta(part, cfg.globMode()) {
				seenMeta = true
				if len(matches) == 1 {
					cut = pathJoin2(matches[0], "")
				}
			} else if part != "" && part != "." && part != ".." {
				verb += internal.CompileBashPattern(part, cfg.globMode()).Literal() + "/"
			} else {
				verb += part + "/"
			}
		}
		switch {
		case part == "", part == ".", part == "..":
			for i, dir := range matches {
				matches[i] = pathJoin2(dir, part)
			}
			continue
		case !internal.BashHasMeta(part, cfg.globMode()):
			// llmsh: the name without the escapes of its quoted parts
			part = internal.CompileBashPattern(part, cfg.globMode()).Literal()
			var newMatches []string
			for _, dir := range matches {
				match := dir
				if !filepath.IsAbs(match) {
					match = filepath.Join(base, match)
				}
				if !wantDir {
					// llmsh: the last component is looked up in its
					// directory's listing: llmsh's listing of a path
					// that does not exist is empty, not an error, so
					// listing the name itself told nothing.
					if cfg.hasEntry(match, part) {
						newMatches = append(newMatches, pathJoin2(dir, part))
					}
					continue
				}
				match = pathJoin2(match, part)
				// We can't use [Config.ReadDir2] on the parent and match the directory
				// entry by name, because short paths on Windows break that.
				// Our only option is to [Config.ReadDir2] on the directory entry itself,
				// which can be wasteful if we only want to see if it exists,
				// but at least it's correct in all scenarios.
				if ents, err := cfg.ReadDir2(match); err == nil && len(ents) == 0 {
					// llmsh: the listing of a path that does not
					// exist is empty; an empty directory is in its
					// parent's listing (zz/** matches nothing).
					if !cfg.hasEntry(path.Dir(match), part) {
						continue
					}
				} else if err != nil {
					if errors.Is(err, syscall.ENOTDIR) {
						// Reading a regular file as a directory.
						// Note that on Windows this error also satisfies
						// [fs.ErrNotExist], so it must be checked first;
						// see https://github.com/golang/go/issues/46734.
					} else if errors.Is(err, fs.ErrNotExist) {
						continue // simply doesn't exist
					}
					if wantDir {
						continue // exists but not a directory
					}
				}
				newMatches = append(newMatches, pathJoin2(dir, part))
			}
			matches = newMatches
			continue
		case part == "**" && cfg.GlobStar:
			// Find all recursive matches for "**".
			// Note that we need the results to be in depth-first order,
			// and to avoid recursion, we use a slice as a stack.
			// Since we pop from the back, we populate the stack backwards.
			stack := make([]string, 0, len(matches))
			// llmsh: a last ** under directories that a pattern
			// matched gives each of them without the separator, as
			// bash's glob_dir_to_array (`*/**` is `a a/x`, `a/**` is
			// `a/ a/x`).
			bare := i == len(parts)-1 && lastTwice || i == len(parts)-1 && slices.ContainsFunc(parts[:i], func(p string) bool {
				return p == "**" && cfg.GlobStar || internal.BashHasMeta(p, cfg.globMode())
			})
			for _, match := range slices.Backward(matches) {
				// "a/**" should match "a/ a/b a/b/cfg ...";
				// note how the zero-match case there has a trailing separator.
				if bare && match != "" {
					stack = append(stack, match)
					continue
				}
				stack = append(stack, pathJoin2(match, ""))
			}
			matches = matches[:0]
			var newMatches []string // to reuse its capacity
			links := map[string]bool{}
			// llmsh: as bash, ** lists a symbolic link to a directory
			// (** last, or **/) but does not descend into it, nor
			// match more components under it (**/f).
			listLinks := i == len(parts)-1 || i == len(parts)-2 && parts[i+1] == ""
			for len(stack) > 0 {
				dir := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if links[dir] {
					if listLinks {
						matches = append(matches, dir)
					}
					continue
				}
				matches = append(matches, dir)

				// If dir is not a directory, we keep the stack as-is and continue.
				newMatches = newMatches[:0]
				rx := rxGlobStar().MatchString
				if cfg.DotGlob {
					rx = rxGlobStarDotGlob().MatchString
				}
				newMatches, _ = cfg.globDirLinks(base, dir, rx, wantDir, newMatches, links)
				for _, match := range slices.Backward(newMatches) {
					stack = append(stack, match)
				}
			}
			continue
		}
		// llmsh: bash's matching (leading dots, extended patterns)
		// llmsh: a name's match ends (fails) when the run is stopped.
		pat, st := internal.CompileBashPattern(part, cfg.globMode()), cfg.patStop()
		var bytePat *internal.BashPattern
		matcher := func(name string) bool {
			// llmsh: under LC_ALL=C (or where either is no valid UTF-8)
			// a name matches byte by byte, as the case statement's.
			if cfg.bytesMatch(name) || cfg.bytesMatch(part) {
				if bytePat == nil {
					bytePat = internal.CompileBashPattern(ByteRunes(part), cfg.globMode())
				}
				return bytePat.MatchStop(st, ByteRunes(name))
			}
			return pat.MatchStop(st, name)
		}
		var err error
		var newMatches []string
		for _, dir := range matches {
			newMatches, err = cfg.globDir(base, dir, matcher, wantDir, newMatches)
			if err != nil {
				return nil, err
			}
			if cfg.GlobDots && part[0] == '.' {
				// llmsh: shopt -u globskipdots: .* matches . and ..,
				// which no listing holds.
				for _, dot := range [...]string{".", ".."} {
					if matcher(dot) {
						newMatches = append(newMatches, pathJoin2(dir, dot))
					}
				}
			}
		}
		matches = newMatches
	}
	if cut != "" && cut != verb {
		for i, m := range matches {
			if rest, ok := strings.CutPrefix(m, cut); ok {
				matches[i] = verb + rest
			}
		}
	}
	// Note that the results need to be sorted.
	// TODO: above we do a BFS; if we did a DFS, the matches would already be sorted.
	slices.Sort(matches)
	// Remove any empty matches left behind from "**".
	if len(matches) > 0 && matches[0] == "" {
		matches = matches[1:]
	}
	return matches, nil
}

func (cfg *Config) globDir(base, dir string, matcher func(string) bool, wantDir bool, matches []string) ([]string, error) {
	return cfg.globDirLinks(base, dir, matcher, wantDir, matches, nil)
}

// globDirLinks is globDir; links (when not nil) is told which matches are
// symbolic links (llmsh: ** does not descend into them).
func (cfg *Config) globDirLinks(base, dir string, matcher func(string) bool, wantDir bool, matches []string, links map[string]bool) ([]string, error) {
	fullDir := dir
	if !filepath.IsAbs(dir) {
		fullDir = filepath.Join(base, dir)
	}
	infos, err := cfg.ReadDir2(fullDir)
	if err != nil {
		// We still want to return matches, for the sake of reusing slices.
		return matches, err
	}
	for _, info := range infos {
		name := info.Name()
		if !wantDir {
			// No filtering.
		} else if mode := info.Type(); mode&os.ModeSymlink != 0 {
			// We need to know if the symlink points to a directory.
			// This requires an extra syscall, as [Config.ReadDir] on the parent directory
			// does not follow symlinks for each of the directory entries.
			// ReadDir is somewhat wasteful here, as we only want its error result,
			// but we could try to reuse its result as per the TODO in [Config.glob].
			if _, err := cfg.ReadDir2(filepath.Join(fullDir, info.Name())); err != nil {
				continue
			}
		} else if !mode.IsDir() {
			// Not a symlink nor a directory.
			continue
		}
		if matcher(name) {
			matches = append(matches, pathJoin2(dir, name))
			if links != nil && isSymlink(info) {
				links[matches[len(matches)-1]] = true
			}
		}
	}
	return matches, nil
}

// isSymlink reports whether a directory entry is a symbolic link: of that
// type, or one that says so while it reports its target's type (llmsh: the
// shell's glob handler, which knows the target's kind from its listing).
func isSymlink(info fs.DirEntry) bool {
	if l, ok := info.(interface{ IsSymlink() bool }); ok {
		return l.IsSymlink()
	}
	return info.Type()&os.ModeSymlink != 0
}

// ReadFields splits and returns n fields from s, like the "read" shell builtin.
// If raw is set, backslash escape sequences are not interpreted.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func ReadFields(cfg *Config, s string, n int, raw bool) []string {
	cfg = prepareConfig(cfg)
	type pos struct {
		start, end int
	}
	var fpos []pos

	runes := make([]rune, 0, len(s))
	infield := false
	esc := false
	for _, r := range s {
		if infield {
			if cfg.ifsRune(r) && (raw || !esc) {
				fpos[len(fpos)-1].end = len(runes)
				infield = false
			}
		} else {
			if !cfg.ifsRune(r) && (raw || !esc) {
				fpos = append(fpos, pos{start: len(runes), end: -1})
				infield = true
			}
		}
		if r == '\\' {
			if raw || esc {
				runes = append(runes, r)
			}
			esc = !esc
			continue
		}
		runes = append(runes, r)
		esc = false
	}
	if len(fpos) == 0 {
		return nil
	}
	if infield {
		fpos[len(fpos)-1].end = len(runes)
	}

	switch {
	case n == 1:
		// The single field spans the whole line minus leading and trailing
		// IFS whitespace; anything outside the fields is already IFS.
		lo, hi := 0, len(runes)
		for lo < fpos[0].start && cfg.ifsWhitespace(runes[lo]) {
			lo++
		}
		for hi > fpos[len(fpos)-1].end && cfg.ifsWhitespace(runes[hi-1]) {
			hi--
		}
		fpos[0].start, fpos[0].end = lo, hi
		fpos = fpos[:1]
	case n != -1 && n < len(fpos):
		// combine to max n fields
		fpos[n-1].end = fpos[len(fpos)-1].end
		fpos = fpos[:n]
	}

	fields := make([]string, len(fpos))
	for i, p := range fpos {
		fields[i] = string(runes[p.start:p.end])
	}
	return fields
}

// cachedRegexp compiles expr, a translated pattern, keeping the last ones
// (llmsh): ${v//p/r} and ${v%p} in a loop compiled the same expression on
// every round (twice for a replacement: its size, then the result).
func cachedRegexp(expr string) *regexp.Regexp {
	if len(expr) > rxCacheLen {
		return regexp.MustCompile(expr)
	}
	return rxCache.Get(expr, func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// rxCache holds the last 128 expressions cachedRegexp compiled.
var rxCache = internal.Cache[string, *regexp.Regexp]{Max: 128}

const rxCacheLen = 512 // bytes: a longer expression is not kept
