package builtins_test

import (
	"context"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// dateClock is the fixed "now" of the tests: a Monday.
var dateClock = time.Date(2026, 11, 23, 10, 30, 0, 123456789, time.UTC)

type dateCase struct {
	environ []string
	args    []string
	out     string
	err     string
	status  int
}

func dateRun(t *testing.T, cases []dateCase) {
	t.Helper()
	defer ForTests.SetNow(func() time.Time { return dateClock })()
	b, _ := Lookup("date")
	for _, c := range cases {
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: append([]string{"date"}, c.args...), Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, Dir: "/", Environ: c.environ}
		st := Run(b, env)
		if out.String() != c.out || errb.String() != c.err || st != c.status {
			t.Errorf("%q %q:\n got %q %q %d\nwant %q %q %d", c.environ, c.args, out.String(), errb.String(), st, c.out, c.err, c.status)
		}
	}
}

// Expected values checked against GNU coreutils 9.1 date (LC_ALL=C; the
// relative forms on 2026-11-23, the day of the fixed clock).
func TestDate(t *testing.T) {
	paris := []string{"TZ=Europe/Paris"}
	dateRun(t, []dateCase{
		{nil, nil, "Mon Nov 23 10:30:00 UTC 2026\n", "", 0},
		{nil, []string{"-u"}, "Mon Nov 23 10:30:00 UTC 2026\n", "", 0},
		{paris, nil, "Mon Nov 23 11:30:00 CET 2026\n", "", 0},
		{paris, []string{"-u", "+%H %Z"}, "10 UTC\n", "", 0},
		{[]string{"TZ="}, []string{"+%H %Z"}, "10 UTC\n", "", 0},
		{[]string{"TZ=:Asia/Kolkata"}, []string{"-d", "@1700000000", "+%z %:z %::z %:::z %Z"}, "+0530 +05:30 +05:30:00 +05:30 IST\n", "", 0},
		{[]string{"TZ=America/St_Johns"}, []string{"-d", "@1700000000", "+%z %:::z %Z"}, "-0330 -03:30 NST\n", "", 0},
		{[]string{"TZ=America/New_York"}, []string{"-d", "@1700000000", "-R"}, "Tue, 14 Nov 2023 17:13:20 -0500\n", "", 0},
		{[]string{"TZ=EST5"}, []string{"-d", "@1700000000", "+%F %T %Z %z"}, "2023-11-14 17:13:20 EST -0500\n", "", 0},
		{[]string{"TZ=<+03>-3"}, []string{"-d", "@1700000000", "+%T %Z %z"}, "01:13:20 +03 +0300\n", "", 0},
		{[]string{"TZ=Foo"}, []string{"-d", "@1700000000", "+%T %Z %z"}, "22:13:20 Foo +0000\n", "", 0},
		{[]string{"TZ=Local"}, []string{"-d", "@0", "+%Z %z"}, "Local +0000\n", "", 0},
		{[]string{"TZ=XX"}, []string{"-d", "@0", "+%Z %z"}, " +0000\n", "", 0},
		{[]string{"TZ=ABC+25"}, []string{"-d", "@0", "+%Z %z"}, "ABC -2400\n", "", 0},
		// POSIX rules with daylight saving time.
		{[]string{"TZ=PST8PDT,M4.1.0,M10.5.0"}, []string{"-d", "2006-04-01 12:00", "+%F %T %Z %z"}, "2006-04-01 12:00:00 PST -0800\n", "", 0},
		{[]string{"TZ=PST8PDT,M4.1.0,M10.5.0"}, []string{"-d", "2006-04-03 12:00", "+%F %T %Z %z"}, "2006-04-03 12:00:00 PDT -0700\n", "", 0},
		{[]string{"TZ=CET-1CEST,M3.5.0,M10.5.0/3"}, []string{"-d", "2024-10-27T00:30Z", "+%F %T %Z %z"}, "2024-10-27 02:30:00 CEST +0200\n", "", 0},
		{[]string{"TZ=CET-1CEST,M3.5.0,M10.5.0/3"}, []string{"-d", "2024-10-27T01:30Z", "+%F %T %Z %z"}, "2024-10-27 02:30:00 CET +0100\n", "", 0},
		{[]string{"TZ=AAA3BBB"}, []string{"-d", "2024-07-01 12:00", "+%Z %z"}, "BBB -0200\n", "", 0},
		// Every conversion, at a fixed instant.
		{nil, []string{"-d", "@1700000000", "+%a|%A|%b|%B|%c|%C|%d|%D|%e|%F|%g|%G|%h|%H|%I|%j|%k|%l|%m|%M|%n|%N|%p|%P|%q|%r|%R|%s|%S|%t|%T|%u|%U|%V|%w|%W|%x|%X|%y|%Y|%z|%:z|%Z|%%"},
			"Tue|Tuesday|Nov|November|Tue Nov 14 22:13:20 2023|20|14|11/14/23|14|2023-11-14|23|2023|Nov|22|10|318|22|10|11|13|\n|000000000|PM|pm|4|10:13:20 PM|22:13|1700000000|20|\t|22:13:20|2|46|46|2|46|11/14/23|22:13:20|23|2023|+0000|+00:00|UTC|%\n", "", 0},
		{nil, []string{"-d", "@1700000000", "+%10Y|%-d|%_H|%e|%0e|%-e|%^a|%#a|%#Z|%#p|%^P|%10a|%010a|%Q|%-Q|%:Y|%3N|%12N|%:::z|%::z|%Ey|%Oy|%Ex|%^c|%_10m|%-5d|%05e"},
			"0000002023|14|22|14|14|14|TUE|TUE|utc|pm|pm|       Tue|0000000Tue|%Q|%-Q|%:Y|000|000000000000|+00|+00:00:00|23|23|11/14/23|TUE NOV 14 22:13:20 2023|        11|14|00014\n", "", 0},
		{nil, []string{"-d", "@1700000000", "+%-z|%_z|%10z|%_10z|%10:z|%Ea|%Ob|%EN|%Oc|%-Om|%5Om|%##8%|%5|"},
			"+0|   +0|+000000000|        +0|+000000:00|%Ea|Nov|%EN|%Oc|11|   11|    %##8%|  %5|\n", "", 0},
		{nil, []string{"-d", "@0.5", "+[%N] [%-N] [%_N] [%3N] [%-3N] [%_3N] [%12N] [%1N]"}, "[500000000] [500000000] [5        ] [500] [5] [5  ] [500000000000] [5]\n", "", 0},
		{nil, []string{"-d", "0099-12-31", "+%Y|%C|%y|%_Y|%-Y|%c|%F|%_F"}, "0099|00|99|  99|99|Thu Dec 31 00:00:00 99|0099-12-31|99-12-31\n", "", 0},
		{nil, []string{"-d", "2021-01-01", "+%G %V %U %W %g %j"}, "2020 53 00 00 20 001\n", "", 0},
		{nil, []string{"-d", "12/25 20240115", "+%F|%Y|%12F|%_12F|%-F|%+12F|%8F"}, "+20240115-12-25|20240115|20240115-12-25|20240115-12-25|20240115-12-25|+20240115-12-25|20240115-12-25\n", "", 0},
		{nil, []string{"-d", "0099-01-02", "+%F|%12F|%_12F|%-F|%+F|%+12F"}, "0099-01-02|000099-01-02|    99-01-02|99-01-02|99-01-02|+00099-01-02\n", "", 0},
		{nil, []string{"-d", "20240115 fortnight", "+%F"}, "+777844-08-19\n", "", 0},
		{nil, []string{"-d", "2024-01-05", "+%"}, "%\n", "", 0},
		// -d forms.
		{nil, []string{"-d", "@0"}, "Thu Jan  1 00:00:00 UTC 1970\n", "", 0},
		{nil, []string{"-d", "@-1.5", "+%s %N"}, "-2 500000000\n", "", 0},
		{nil, []string{"-d", "2024-02-29 13:45:00", "+%Y/%m/%d %H:%M:%S"}, "2024/02/29 13:45:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01", "+%s"}, "1704067200\n", "", 0},
		{nil, []string{"-d", "2006-01-02T15:04:05.123+05:30", "+%F %T.%N"}, "2006-01-02 09:34:05.123000000\n", "", 0},
		{nil, []string{"-d", "2024-01-01T10:00Z", "+%F %T %Z"}, "2024-01-01 10:00:00 UTC\n", "", 0},
		{nil, []string{"-d", "Mon, 02 Jan 2006 15:04:05 -0700", "+%F %T %z"}, "2006-01-02 22:04:05 +0000\n", "", 0},
		{paris, []string{"-d", "2006-01-02T15:04:05Z"}, "Mon Jan  2 16:04:05 CET 2006\n", "", 0},
		{paris, []string{"-d", "2024-07-01 12:00", "+%F %T %Z %s"}, "2024-07-01 12:00:00 CEST 1719828000\n", "", 0},
		{nil, []string{"-d", "now", "+%F %T.%N"}, "2026-11-23 10:30:00.123456789\n", "", 0},
		{nil, []string{"-d", "today", "+%F %T"}, "2026-11-23 10:30:00\n", "", 0},
		{nil, []string{"-d", "yesterday", "+%F %T"}, "2026-11-22 10:30:00\n", "", 0},
		{nil, []string{"-d", "tomorrow", "+%F"}, "2026-11-24\n", "", 0},
		{nil, []string{"-d", "3 days ago", "+%F %T"}, "2026-11-20 10:30:00\n", "", 0},
		{nil, []string{"-d", "+2 hours", "+%F %T"}, "2026-11-23 12:30:00\n", "", 0},
		{nil, []string{"-d", "90 minutes ago", "+%T"}, "09:00:00\n", "", 0},
		{nil, []string{"-d", "1.5 seconds ago", "+%T.%N"}, "10:29:58.623456789\n", "", 0},
		{nil, []string{"-d", "next friday", "+%F %T"}, "2026-11-27 00:00:00\n", "", 0},
		{nil, []string{"-d", "last friday", "+%F"}, "2026-11-20\n", "", 0},
		{nil, []string{"-d", "monday", "+%F"}, "2026-11-23\n", "", 0},
		{nil, []string{"-d", "next monday", "+%F"}, "2026-11-30\n", "", 0},
		{nil, []string{"-d", "sunday", "+%F"}, "2026-11-29\n", "", 0},
		{nil, []string{"-d", "next month", "+%F"}, "2026-12-23\n", "", 0},
		{nil, []string{"-d", "last year", "+%F"}, "2025-11-23\n", "", 0},
		{nil, []string{"-d", "fortnight ago", "+%F"}, "2026-11-09\n", "", 0},
		{nil, []string{"-d", "2024-01-31 +1 month", "+%F"}, "2024-03-02\n", "", 0},
		{nil, []string{"-d", "tomorrow 9am", "+%F %T"}, "2026-11-24 09:00:00\n", "", 0},
		{nil, []string{"-d", "10:00 +3 hours", "+%F %T"}, "2026-11-23 08:00:00\n", "", 0},
		{nil, []string{"-d", "Jan 2 2006 3:04pm", "+%F %T"}, "2006-01-02 15:04:00\n", "", 0},
		{nil, []string{"-d", "17-JUN-1992", "+%F"}, "1992-06-17\n", "", 0},
		{nil, []string{"-d", "06/17/92", "+%F"}, "1992-06-17\n", "", 0},
		{nil, []string{"-d", "20240102 1030", "+%F %T"}, "2024-01-02 10:30:00\n", "", 0},
		{nil, []string{"-d", "2006-01-02 15:04:05 UTC+3", "+%F %T"}, "2006-01-02 12:04:05\n", "", 0},
		{nil, []string{"-d", "2024-01-01 12:00 EST", "+%F %T"}, "2024-01-01 17:00:00\n", "", 0},
		{nil, []string{"-d", "12am", "+%T"}, "00:00:00\n", "", 0},
		{nil, []string{"-d", "", "+%F %T"}, "2026-11-23 00:00:00\n", "", 0},
		{nil, []string{"-d", "x", "+%F %T"}, "2026-11-23 11:00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01", "-d", "2024-02-01", "+%F"}, "2024-02-01\n", "", 0},
		// From coreutils' tests/date/date.pl (TZ=UTC0).
		{[]string{"TZ=UTC0"}, []string{"-d", "1997-01-19 08:17:48 +0 next month", "+%Y-%m-%d %T"}, "1997-02-19 08:17:48\n", "", 0},
		{[]string{"TZ=UTC0"}, []string{"--date", "02/29/1996 1 year", "+%Y-%m-%d"}, "1997-03-01\n", "", 0},
		{[]string{"TZ=UTC+2"}, []string{"-d", "1970-01-01 00:00:01", "+%s"}, "7201\n", "", 0},
		{[]string{"TZ=UTC+4"}, []string{"-u", "-d", "08/01/97 6:00 UTC +4 hours", "+%D,%H:%M"}, "08/01/97,10:00\n", "", 0},
		{nil, []string{"-d", "1970-01-01 UTC 946684800 sec", "+%Y-%m-%d %T %z"}, "2000-01-01 00:00:00 +0000\n", "", 0},
		{nil, []string{"-d", "000909", "+%Y-%m-%d %T"}, "2000-09-09 00:00:00\n", "", 0},
		{[]string{"TZ=PST8PDT,M4.1.0,M10.5.0"}, []string{"-I", "-d", "2006-04-23 21 days ago"}, "2006-04-02\n", "", 0},
		{nil, []string{"--iso=ns", "-d", "1969-12-31 13:00:00.00000001-1100"}, "1970-01-01T00:00:00,000000010+00:00\n", "", 0},
		{nil, []string{"--rfc-3339=ns", "-d", "1970-01-01 00:00:00.1234567 UTC +961062237.987654321 sec"}, "2000-06-15 09:43:58.111111021+00:00\n", "", 0},
		{[]string{"TZ=XXX12:34:56"}, []string{"+%:::z"}, "-12:34:56\n", "", 0},
		{[]string{"TZ=XXX-1:02:03"}, []string{"+%::z"}, "+01:02:03\n", "", 0},
		{[]string{"TZ=XXX0:01"}, []string{"+%8:z|%:8z"}, "-0000:01|%:8z\n", "", 0},
		{[]string{"TZ=JST-9"}, []string{"+%Z"}, "JST\n", "", 0},
		{nil, []string{"-d", "@-22", "+%05s|%_5s"}, "-0022|  -22\n", "", 0},
		{nil, []string{"-d", "@0", "+.%+4C.|%+Y|%+6Y|%+3d|%+4y"}, ".+019.|1970|+01970|001|+070\n", "", 0},
		{nil, []string{"-d", "\xb0"}, "", "date: invalid date '\\260'\n", 1},
		{nil, []string{"-d", `TZ="""`}, "", "date: invalid date 'TZ=\"\"\"'\n", 1},
		{[]string{"TZ=PST8"}, []string{"-d", `TZ="EST5" 1970-01-01 00:00`}, "Wed Dec 31 21:00:00 PST 1969\n", "", 0},
		{nil, []string{"-d", `TZ="Europe/Paris" 2024-07-01 12:00`, "+%F %T"}, "2024-07-01 10:00:00\n", "", 0},
		{nil, []string{"-u", "-d", "1970-12-31T23:59:59+00:00 - 1 year"}, "Wed Dec 31 23:59:59 UTC 1969\n", "", 0},
		{nil, []string{"-d", "09:00B", "+%T"}, "07:00:00\n", "", 0},
		{nil, []string{"-d", "09:00T", "+%T"}, "16:00:00\n", "", 0},
		{nil, []string{"+%%-N"}, "%-N\n", "", 0},
		{nil, []string{"+"}, "\n", "", 0},
		{nil, []string{"--debug", "-d", "1999-06-01", "+%F"}, "1999-06-01\n",
			"date: final: 928195200.000000000 (epoch-seconds)\ndate: final: (Y-M-D) 1999-06-01 00:00:00 (UTC)\ndate: final: (Y-M-D) 1999-06-01 00:00:00 (UTC+00)\ndate: output format: '%F'\n", 0},
		// Output formats.
		{nil, []string{"-d", "2024-01-01 10:00", "-Iseconds"}, "2024-01-01T10:00:00+00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01 10:00:01.25", "--iso-8601=ns"}, "2024-01-01T10:00:01,250000000+00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01 10:00", "-Ih"}, "2024-01-01T10+00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01 10:00", "--iso-8601=min"}, "2024-01-01T10:00+00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01 10:00", "-I"}, "2024-01-01\n", "", 0},
		{nil, []string{"-d", "2024-01-01 10:00", "--rfc-3339=seconds"}, "2024-01-01 10:00:00+00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01 10:00:01.25", "--rfc-3339=ns"}, "2024-01-01 10:00:01.250000000+00:00\n", "", 0},
		{nil, []string{"-d", "2024-01-01", "--rfc-3339=d"}, "2024-01-01\n", "", 0},
		{paris, []string{"-d", "2024-01-01T10:00:00-05:00", "-R"}, "Mon, 01 Jan 2024 16:00:00 +0100\n", "", 0},
		// Errors.
		{nil, []string{"-d", "garbage"}, "", "date: invalid date 'garbage'\n", 1},
		{nil, []string{"-d", "2024-02-30"}, "", "date: invalid date '2024-02-30'\n", 1},
		{nil, []string{"-d", "25:00"}, "", "date: invalid date '25:00'\n", 1},
		{nil, []string{"-d", "it's"}, "", "date: invalid date 'it\\'s'\n", 1},
		{paris, []string{"-d", "2024-03-31 02:30"}, "", "date: invalid date '2024-03-31 02:30'\n", 1},
		{nil, []string{"-I", "-R"}, "", "date: multiple output formats specified\n", 1},
		{nil, []string{"-R", "+%s"}, "", "date: multiple output formats specified\n", 1},
		{nil, []string{"--iso-8601=x"}, "", "date: invalid argument 'x' for '--iso-8601'\nValid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\nTry 'date --help' for more information.\n", 1},
		{nil, []string{"--rfc-3339="}, "", "date: ambiguous argument '' for '--rfc-3339'\nValid arguments are:\n  - 'date'\n  - 'seconds'\n  - 'ns'\nTry 'date --help' for more information.\n", 1},
		{nil, []string{"--rfc-3339"}, "", "date: option '--rfc-3339' requires an argument\nTry 'date --help' for more information.\n", 1},
		{nil, []string{"-d", "now", "-r", "x"}, "", "date: the options to specify dates for printing are mutually exclusive\nTry 'date --help' for more information.\n", 1},
		// GNU date refuses -s with -d, -f or -r before it sets anything
		// (checked by hand: never run GNU's -s as root in a test).
		{nil, []string{"-d", "now", "-s", "x"}, "", "date: the options to print and set the time may not be used together\nTry 'date --help' for more information.\n", 1},
		{nil, []string{"-s", "x", "-r", "x"}, "", "date: the options to print and set the time may not be used together\nTry 'date --help' for more information.\n", 1},
		{nil, []string{"+%s", "2020"}, "", "date: extra operand '2020'\nTry 'date --help' for more information.\n", 1},
		{nil, []string{"2020"}, "", "date: invalid date '2020'\n", 1},
		// Setting the clock fails, and date prints the time it would set.
		{nil, []string{"12312359"}, "Thu Dec 31 23:59:00 UTC 2026\n", "date: cannot set date: Operation not permitted\n", 1},
		{nil, []string{"0101000070"}, "Thu Jan  1 00:00:00 UTC 1970\n", "date: cannot set date: Operation not permitted\n", 1},
		{nil, []string{"0101000068.60"}, "Sun Jan  1 00:01:00 UTC 2068\n", "date: cannot set date: Operation not permitted\n", 1},
		{nil, []string{"013100002020"}, "Fri Jan 31 00:00:00 UTC 2020\n", "date: cannot set date: Operation not permitted\n", 1},
		{nil, []string{"0230000020"}, "", "date: invalid date '0230000020'\n", 1},
		{nil, []string{"0101000020.61"}, "", "date: invalid date '0101000020.61'\n", 1},
		{nil, []string{"-s", "2020-01-01"}, "Wed Jan  1 00:00:00 UTC 2020\n", "date: cannot set date: Operation not permitted\n", 1},
		{nil, []string{"-s", "@5", "-R"}, "Thu, 01 Jan 1970 00:00:05 +0000\n", "date: cannot set date: Operation not permitted\n", 1},
		{nil, []string{"-x"}, "", "date: invalid option -- 'x'\nTry 'date --help' for more information.\n", 1},
	})
}

// Checked against GNU coreutils 9.1 date: -r prints the file's mtime.
func TestDateReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/f", "x")
	fi, err := fsys.Stat(dir + "/f")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Lookup("date")
	for _, c := range []struct {
		args         []string
		out, errText string
		status       int
	}{
		{[]string{"date", "-r", "f", "+%s %N"}, fi.ModTime().UTC().Format("20060102150405") + "\n", "", 0},
		{[]string{"date", "-r", "nosuch"}, "", "date: nosuch: No such file or directory\n", 1},
	} {
		var out, errb strings.Builder
		args := c.args
		if c.status == 0 {
			args = []string{"date", "-u", "-r", "f", "+%Y%m%d%H%M%S"}
		}
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		if st := Run(b, env); out.String() != c.out || errb.String() != c.errText || st != c.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", args, out.String(), errb.String(), st, c.out, c.errText, c.status)
		}
	}
}

// Checked against GNU coreutils 9.1 date -f (LC_ALL=C).
func TestDateBatch(t *testing.T) {
	defer ForTests.SetNow(func() time.Time { return dateClock })()
	runText(t, []textCase{
		{"2024-01-01\n\nbad\n@0\n", []string{"date", "-u", "-f", "-", "+%F"}, "2024-01-01\n2026-11-23\n1970-01-01\n", "date: invalid date 'bad'\n", 1},
		{"@5", []string{"date", "-f", "-", "+%s"}, "5\n", "", 0},
		{"@1\r\n", []string{"date", "--file=-", "+%s"}, "1\n", "", 0},
		{"", []string{"date", "-f", "-", "-d", "now"}, "", "date: the options to specify dates for printing are mutually exclusive\nTry 'date --help' for more information.\n", 1},
	})
	runTextFiles(t, []textFileCase{
		{map[string]string{"d": "2024-02-29 13:45\n"}, []string{"date", "-f", "d", "+%F %T"}, "2024-02-29 13:45:00\n", "", 0, "", ""},
		{map[string]string{}, []string{"date", "-f", "nosuch"}, "", "date: nosuch: No such file or directory\n", 1, "", ""},
	})
}
