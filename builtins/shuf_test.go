package builtins_test

import (
	"context"
	"crypto/sha256"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func shufTestSource() string {
	var b []byte
	for i := 0; i < 64; i++ {
		s := sha256.Sum256([]byte(strconv.Itoa(i)))
		b = append(b, s[:]...)
	}
	return string(b)
}

// Expected output produced by GNU coreutils 9.1 shuf on this machine; rs.bin is the
// same bytes there and here (SHA-256 of "0".."63"), so --random-source makes it exact.
func TestShufReal(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"e":      "",
		"l7":     "a\nb\nc\nd\ne\nf\ng\n",
		"l1":     "x\n",
		"rs.bin": shufTestSource(),
		"z":      "a\x00b\x00c\x00",
	}
	i6Run(t, files, []i6Case{
		{"", []string{"shuf", "--random-source=rs.bin", "l7"}, "e\nc\na\nd\ng\nb\nf\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "--random-source=rs.bin", "l1"}, "x\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-n1", "--random-source=l7", "l1"}, "", "shuf: multiple random sources specified\n", 1},
		// -n 0 opens neither the input nor the random source (but -r opens
		// the source), as GNU.
		{"", []string{"shuf", "-n", "0", "nosuch"}, "", "", 0},
		{"", []string{"shuf", "-rn", "0", "nosuch"}, "", "", 0},
		{"", []string{"shuf", "-n", "0", "--random-source=nosuch", "l7"}, "", "", 0},
		{"", []string{"shuf", "-n", "0", "--random-source=nosuch", "-i", "1-3"}, "", "", 0},
		{"", []string{"shuf", "-rn", "0", "--random-source=nosuch", "-i", "1-3"}, "", "shuf: nosuch: No such file or directory\n", 1},
		{"", []string{"shuf", "--random-source=rs.bin", "-n", "3", "l7"}, "e\nc\na\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-n", "1", "l7"}, "e\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin"}, "", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-n", "2"}, "", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-n", "10"}, "", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "1-20"}, "16\n8\n15\n4\n1\n6\n9\n13\n11\n18\n7\n14\n10\n3\n12\n2\n19\n20\n17\n5\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "5-1000", "-n", "5"}, "657\n415\n651\n519\n728\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "1-3000000", "-n", "4"}, "286572\n1304599\n393010\n1936319\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "1-10", "-r", "-n", "12"}, "6\n10\n7\n4\n8\n5\n8\n3\n1\n7\n6\n6\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-e", "a", "b", "c", "d"}, "d\na\nb\nc\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-r", "-n", "5", "-e", "a", "b"}, "b\nb\nb\nb\nb\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-n", "0", "l7"}, "", "", 0},
		{"", []string{"shuf", "--random-source=e", "l7"}, "", "shuf: 'e': end of file\n", 1},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "5-4"}, "", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "5-3"}, "", "shuf: invalid input range: '5-3'\n", 1},
		{"", []string{"shuf", "-i", "x-3"}, "", "shuf: invalid input range: 'x'\n", 1},
		{"", []string{"shuf", "-n", "x", "l7"}, "", "shuf: invalid line count: 'x'\n", 1},
		{"", []string{"shuf", "-n", " +1", "l1"}, "x\n", "", 0},
		{"", []string{"shuf", "-n", "1K", "l1"}, "", "shuf: invalid line count: '1K'\n", 1},
		{"", []string{"shuf", "-n", "99999999999999999999", "l1"}, "x\n", "", 0},
		{"", []string{"shuf", "-e", "-i", "1-2"}, "", "shuf: cannot combine -e and -i options\nTry 'shuf --help' for more information.\n", 1},
		{"", []string{"shuf", "l7", "l7"}, "", "shuf: extra operand 'l7'\nTry 'shuf --help' for more information.\n", 1},
		{"", []string{"shuf", "-i", "1-2", "l7"}, "", "shuf: extra operand 'l7'\nTry 'shuf --help' for more information.\n", 1},
		{"", []string{"shuf", "nosuch"}, "", "shuf: nosuch: No such file or directory\n", 1},
		{"", []string{"shuf", "-r", "-n", "3", "e"}, "", "shuf: no lines to repeat\n", 1},
		{"", []string{"shuf", "-r", "e"}, "", "shuf: no lines to repeat\n", 1},
		{"", []string{"shuf", "--random-source=rs.bin", "-z", "l7"}, "a\nb\nc\nd\ne\nf\ng\n\x00", "", 0},
		{"", []string{"shuf", "--random-source=nosuch", "l7"}, "", "shuf: nosuch: No such file or directory\n", 1},
		{"", []string{"shuf", "--random-source=rs.bin", "-n", "3", "-n", "2", "l7"}, "e\nc\n", "", 0},
		{"", []string{"shuf", "-e"}, "", "", 0},
		{"", []string{"shuf", "-i", "3-3"}, "3\n", "", 0},
		{"", []string{"shuf", "-i", "5-x"}, "", "shuf: invalid input range: 'x'\n", 1},
		{"", []string{"shuf", "-i", "5"}, "", "shuf: invalid input range: '5'\n", 1},
		{"", []string{"shuf", "-i", "5-3", "-n", "1"}, "", "shuf: invalid input range: '5-3'\n", 1},
		{"", []string{"shuf", "-i", "-3"}, "", "shuf: invalid input range: ''\n", 1},
		{"", []string{"shuf", "-i", "5-"}, "", "shuf: invalid input range: ''\n", 1},
		{"", []string{"shuf", "-i", "1-2-3"}, "", "shuf: invalid input range: '2-3'\n", 1},
		{"one\ntwo\nthree", []string{"shuf", "--random-source=rs.bin"}, "three\none\ntwo\n", "", 0},
		{"one\ntwo\nthree", []string{"shuf", "--random-source=rs.bin", "-n", "2"}, "two\none\n", "", 0},
		{"line0\nline1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\nline11\nline12\nline13\nline14\nline15\nline16\nline17\nline18\nline19\nline20\nline21\nline22\nline23\nline24\nline25\nline26\nline27\nline28\nline29\nline30\nline31\nline32\nline33\nline34\nline35\nline36\nline37\nline38\nline39\nline40\nline41\nline42\nline43\nline44\nline45\nline46\nline47\nline48\nline49\nline50\nline51\nline52\nline53\nline54\nline55\nline56\nline57\nline58\nline59\nline60\nline61\nline62\nline63\nline64\nline65\nline66\nline67\nline68\nline69\nline70\nline71\nline72\nline73\nline74\nline75\nline76\nline77\nline78\nline79\nline80\nline81\nline82\nline83\nline84\nline85\nline86\nline87\nline88\nline89\nline90\nline91\nline92\nline93\nline94\nline95\nline96\nline97\nline98\nline99\nline100\nline101\nline102\nline103\nline104\nline105\nline106\nline107\nline108\nline109\nline110\nline111\nline112\nline113\nline114\nline115\nline116\nline117\nline118\nline119\nline120\nline121\nline122\nline123\nline124\nline125\nline126\nline127\nline128\nline129\nline130\nline131\nline132\nline133\nline134\nline135\nline136\nline137\nline138\nline139\nline140\nline141\nline142\nline143\nline144\nline145\nline146\nline147\nline148\nline149\nline150\nline151\nline152\nline153\nline154\nline155\nline156\nline157\nline158\nline159\nline160\nline161\nline162\nline163\nline164\nline165\nline166\nline167\nline168\nline169\nline170\nline171\nline172\nline173\nline174\nline175\nline176\nline177\nline178\nline179\nline180\nline181\nline182\nline183\nline184\nline185\nline186\nline187\nline188\nline189\nline190\nline191\nline192\nline193\nline194\nline195\nline196\nline197\nline198\nline199\nline200\nline201\nline202\nline203\nline204\nline205\nline206\nline207\nline208\nline209\nline210\nline211\nline212\nline213\nline214\nline215\nline216\nline217\nline218\nline219\nline220\nline221\nline222\nline223\nline224\nline225\nline226\nline227\nline228\nline229\nline230\nline231\nline232\nline233\nline234\nline235\nline236\nline237\nline238\nline239\nline240\nline241\nline242\nline243\nline244\nline245\nline246\nline247\nline248\nline249\nline250\nline251\nline252\nline253\nline254\nline255\nline256\nline257\nline258\nline259\nline260\nline261\nline262\nline263\nline264\nline265\nline266\nline267\nline268\nline269\nline270\nline271\nline272\nline273\nline274\nline275\nline276\nline277\nline278\nline279\nline280\nline281\nline282\nline283\nline284\nline285\nline286\nline287\nline288\nline289\nline290\nline291\nline292\nline293\nline294\nline295\nline296\nline297\nline298\nline299\n", []string{"shuf", "--random-source=rs.bin", "-n", "5"}, "line227\nline125\nline179\nline108\nline114\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-z", "z"}, "c\x00a\x00b\x00", "", 0},
	})
}

func TestShufSystemRandom(t *testing.T) {
	t.Parallel()
	in := "a\nb\nc\nd\ne\nf\ng\nh\n"
	r := runCmd(t, nil, in, "shuf")
	got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	sort.Strings(got)
	if r.status != 0 || strings.Join(got, "\n")+"\n" != in {
		t.Errorf("shuf: not a permutation: %q %q", r.stdout, r.stderr)
	}
	r = runCmd(t, nil, "", "shuf", "-i", "1-1000000000", "-n", "3")
	if n := strings.Count(r.stdout, "\n"); n != 3 || r.status != 0 {
		t.Errorf("shuf -i -n 3: %q", r.stdout)
	}
	r = runCmd(t, nil, "", "shuf", "-r", "-n", "50", "-e", "x", "y")
	if strings.Count(r.stdout, "x\n")+strings.Count(r.stdout, "y\n") != 50 {
		t.Errorf("shuf -r: %q", r.stdout)
	}
	r = runCmd(t, map[string]string{}, "", "shuf", "-e", "p", "q", "-o", "out")
	if r.stdout != "" || r.status != 0 {
		t.Errorf("shuf -o: %+v", r)
	}
}

func TestShufStops(t *testing.T) {
	t.Parallel()
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(""), pipeErrWriter{}, "shuf", "-i", "1-100000"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, _ := runTextEnv(t, ctx, strings.NewReader(strings.Repeat("x\n", 100000)), &strings.Builder{}, "shuf"); st != 1 {
		t.Errorf("cancelled: %d", st)
	}
}

// Checked against GNU coreutils 9.1 shuf with the same random source.
func TestShufHugeRanges(t *testing.T) {
	t.Parallel()
	files := map[string]string{"rs.bin": shufTestSource()}
	i6Run(t, files, []i6Case{
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "1-4000000000", "-n", "3"}, "1609362279\n324609017\n2689976014\n", "", 0},
		{"", []string{"shuf", "--random-source=rs.bin", "-i", "1-18446744073709551615", "-n", "2"}, "6912158355717386041\n15659711261408062587\n", "", 0},
		{"", []string{"shuf", "-i", "1-18446744073709551615"}, "", "shuf: memory exhausted\n", 1},
	})
}
