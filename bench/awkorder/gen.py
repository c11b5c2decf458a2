# bench/awkorder/gen.py SEED COUNT DIR: random awk programs for run.sh.
import random, sys
# Random awk programs exercising array order. Usage: gen.py SEED COUNT DIR
seed, count, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rnd = random.Random(seed)
ARR = ["a", "b"]
def key():
    r = rnd.random()
    if r < 0.25: return str(rnd.randint(-5, 300))             # int constant
    if r < 0.40: return '"%d"' % rnd.randint(0, 300)          # numeric-looking string
    if r < 0.55: return '"k%d"' % rnd.randint(0, 300)         # plain string
    if r < 0.62: return "$%d" % rnd.randint(1, 3)             # fields (numeric strings)
    if r < 0.70: return "(i%d)" % rnd.randint(0, 2)           # int variable
    if r < 0.75: return '(i%d "")' % rnd.randint(0, 2)        # string of int variable
    if r < 0.80: return "(i%d + 0.5)" % rnd.randint(0, 2)     # non-integer double
    if r < 0.85: return "%d, %d" % (rnd.randint(0, 9), rnd.randint(0, 9))  # SUBSEP
    if r < 0.90: return "NR"
    if r < 0.95: return "x"                                   # uninitialised
    return "(%d.0 * 2)" % rnd.randint(0, 100)
def stmt(depth=0):
    A = rnd.choice(ARR)
    r = rnd.random()
    k = key()
    if r < 0.15: return "%s[%s] = %d" % (A, k, rnd.randint(0, 9))
    if r < 0.30: return "%s[%s]++" % (A, k)
    if r < 0.35: return "%s[%s] += 2" % (A, k)
    if r < 0.45: return "y = %s[%s]" % (A, k)
    if r < 0.55: return "if ((%s) in %s) n++" % (k, A)
    if r < 0.65: return "delete %s[%s]" % (A, k)
    if r < 0.67: return "delete %s" % A
    if r < 0.70: return 'split("%s", %s)' % (" ".join(str(rnd.randint(0, 50)) for _ in range(rnd.randint(0, 30))), A)
    if r < 0.72: return "n += length(%s)" % A
    if r < 0.74 and depth == 0: return "dump(%s)" % A
    if r < 0.78 and depth == 0:
        m = rnd.choice([10, 100, 700, 800, 1600, 3100])
        kind = rnd.choice(["i0", 'i0 ""', '"s" i0', "i0 * 3", "i0 - 400", "i0 / 2", '"" i0*7', "i0, i0 % 5"])
        return "for (i0 = 0; i0 < %d; i0++) %s[%s]" % (m, A, kind)
    if r < 0.81 and depth == 0:
        return "for (kk in %s) { %s }" % (A, stmt(1))
    if r < 0.83 and depth == 0: return "f(%s)" % A
    if r < 0.85: return 'getline %s[%s] < "in.txt"' % (A, k)
    if r < 0.88 and depth == 0: return "for (kk in %s) if (length(kk) %% 3 == 1) delete %s[kk]" % (A, A)
    if r < 0.91: return "i%d = %d" % (rnd.randint(0, 2), rnd.randint(0, 200))
    if r < 0.94: return 'i%d = "%d"' % (rnd.randint(0, 2), rnd.randint(0, 200))
    return "i%d++" % rnd.randint(0, 2)
for t in range(count):
    body = "; ".join(stmt() for _ in range(rnd.randint(3, 40)))
    endb = "; ".join(stmt() for _ in range(rnd.randint(0, 10)))
    prog = ("BEGIN { if (0) { a[0]; b[0] } } function dump(arr,  k, s) { s = \"\"; for (k in arr) s = s \" \" k; print \"dump\", length(arr) \":\" s }\n"
            "function f(arr,  k) { arr[\"fk\"]; arr[7]++; for (k in arr) { print \"f\", k; break } }\n"
            "{ %s }\nEND { %s; dump(a); dump(b); print n }\n" % (body, endb))
    open("%s/p%d.awk" % (d, t), "w").write(prog)
