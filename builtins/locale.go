package builtins

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

var _ = register(Builtin{Name: "locale", Summary: "get locale-specific information (llmsh's locales: C, C.utf8, POSIX)", Run: localeCmd})

// localeCategories are glibc's categories in locale's order.
var localeCategories = []string{"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES",
	"LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION"}

//go:embed locale_db.txt
var localeDBText string

// localeKeyword is one keyword of glibc's C locale: its category and its
// value as `locale -k` writes it, in C and in C.utf8.
type localeKeyword struct{ cat, c, utf8 string }

// localeDB holds every keyword of llmsh's locales (localeDBText, made
// from glibc 2.36), and each category's keywords in glibc's order.
var localeDB = sync.OnceValues(func() (map[string]*localeKeyword, map[string][]string) {
	kws, order := map[string]*localeKeyword{}, map[string][]string{}
	cat := ""
	for _, line := range strings.Split(localeDBText, "\n") {
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '@':
			cat = line[1:]
		case cat == "utf8":
			name, v, _ := strings.Cut(line, "=")
			kws[name].utf8 = v
		default:
			name, v, _ := strings.Cut(line, "=")
			kws[name] = &localeKeyword{cat, v, v}
			order[cat] = append(order[cat], name)
		}
	}
	return kws, order
})

// localeCmd is glibc 2.36's locale over llmsh's locales, which are the
// ones a Debian system has without locales installed: C, C.utf8 (also
// written C.UTF-8) and POSIX. The script's exported LANG, LC_* and
// LC_ALL choose them, as the environment does for glibc; a name of
// another locale gets glibc's "Cannot set …" messages. Every keyword and
// category of glibc's C and C.utf8 answers (localeDB); -m (glibc's 236
// charmaps) is refused.
func localeCmd(env *Env) int {
	f := NewFlags(env, "Get locale-specific information.\n\nllmsh's locales are C, C.utf8 and POSIX (glibc's own).", "[OPTION...] NAME", "[OPTION...] [-a|-m]")
	all := f.Bool('a', "all-locales", "Write names of available locales")
	charmaps := f.Bool('m', "charmaps", "Write names of available charmaps (llmsh: refused)")
	catName := f.Bool('c', "category-name", "Write names of selected categories")
	keyName := f.Bool('k', "keyword-name", "Write names of selected keywords")
	f.Bool('v', "verbose", "Print more information")
	usage := f.Bool(0, "usage", "Give a short usage message")
	version := f.Bool('V', "version", "Print program version")
	f.HelpShort = '?'
	f.Func('?', "", NoArg, "", "", func(string, bool) error { return ErrHelp })
	names, err := f.Parse(env.Args[1:])
	if err != nil {
		if msg, ok := usageMessage(err); ok {
			fmt.Fprintf(env.Stderr, "locale: %s\nTry `locale --help' or `locale --usage' for more information.\n", msg)
			return 64
		}
		return f.Fail(err, 64)
	}
	if *usage {
		fmt.Fprint(env.Stdout, "Usage: locale [-ckv?V] [--category-name] [--keyword-name] [--verbose] [--help]\n            [--usage] [--version] NAME\n  or:  locale [OPTION...] [-a|-m]\n")
		return 0
	}
	if *version {
		return printVersion(env)
	}
	get := func(name string) string { v, _ := EnvironValue(env.Environ, name); return v }
	eff := func(cat string) string {
		for _, v := range []string{get("LC_ALL"), get(cat), get("LANG")} {
			if v != "" {
				return v
			}
		}
		return "C"
	}
	for _, cat := range []string{"LC_CTYPE", "LC_MESSAGES"} {
		if !localeKnown(eff(cat)) {
			env.Errorf("Cannot set %s to default locale: No such file or directory", cat)
		}
	}
	switch {
	case *all:
		if !localeKnown(eff("LC_COLLATE")) {
			env.Errorf("Cannot set LC_COLLATE to default locale: No such file or directory")
		}
		fmt.Fprint(env.Stdout, "C\nC.utf8\nPOSIX\n")
		return 0
	case *charmaps:
		env.Errorf("llmsh has no charmap files (-m); its charmaps are ANSI_X3.4-1968 and UTF-8")
		return 1
	}
	for _, cat := range localeCategories {
		if !localeKnown(eff(cat)) {
			env.Errorf("Cannot set LC_ALL to default locale: No such file or directory")
			break
		}
	}
	if len(names) == 0 && !*catName && !*keyName {
		localeVars(env, get)
		return 0
	}
	kws, order := localeDB()
	w := stdoutWriter(env)
	for _, n := range names {
		list := order[n] // a category: its keywords
		if _, ok := kws[n]; ok {
			list = []string{n}
		} else if len(list) == 0 {
			w.Flush()
			env.Errorf("unknown name \"%s\"", n) // and glibc's locale ends
			return finishOutput(env, w, 1)
		}
		if *catName {
			w.WriteString(kws[list[0]].cat + "\n")
		}
		for _, name := range list {
			kw := kws[name]
			val := kw.c
			if l := eff(kw.cat); localeKnown(l) && localeUTF8(l) {
				val = kw.utf8
			}
			if *keyName {
				w.WriteString(name + "=" + val + "\n")
			} else {
				w.WriteString(strings.ReplaceAll(val, "\"", "") + "\n")
			}
		}
	}
	return finishOutput(env, w, 0)
}

// localeVars prints LANG, LANGUAGE, each category and LC_ALL as glibc's
// show_locale_vars: a category set on its own (and no LC_ALL) as it is,
// the others quoted, from LC_ALL, LANG or POSIX.
func localeVars(env *Env, get func(string) string) {
	var b strings.Builder
	lcAll, lang := get("LC_ALL"), get("LANG")
	fmt.Fprintf(&b, "LANG=%s\nLANGUAGE=%s\n", lang, get("LANGUAGE"))
	for _, cat := range localeCategories {
		v := get(cat)
		switch {
		case lcAll != "":
			fmt.Fprintf(&b, "%s=\"%s\"\n", cat, lcAll)
		case v != "":
			fmt.Fprintf(&b, "%s=%s\n", cat, v)
		case lang != "":
			fmt.Fprintf(&b, "%s=\"%s\"\n", cat, lang)
		default:
			fmt.Fprintf(&b, "%s=\"POSIX\"\n", cat)
		}
	}
	fmt.Fprintf(&b, "LC_ALL=%s\n", lcAll)
	env.Stdout.Write([]byte(b.String()))
}

// localeKnown reports whether name is one of llmsh's locales: C, POSIX,
// or C with a codeset glibc normalises to utf8 (C.UTF-8, C.utf8).
func localeKnown(name string) bool {
	return name == "C" || name == "POSIX" || localeUTF8(name)
}

// localeUTF8 reports whether name is C.utf8 in one of its spellings.
func localeUTF8(name string) bool {
	cs, ok := strings.CutPrefix(name, "C.")
	if !ok {
		return false
	}
	var norm strings.Builder
	for _, r := range strings.ToLower(cs) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			norm.WriteRune(r)
		}
	}
	return norm.String() == "utf8"
}
