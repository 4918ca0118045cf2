#!/usr/bin/env bash
# The hostile-input probe of issue 29: each command, its exit code and the first lines it
# printed to stderr (and what to read from stdout). Build first: cargo build --release.
#   scripts/hostile-probe.sh > probe.txt        (F=/path/to/finale to probe another build)
F=${F:-$(cd "$(dirname "$0")/.." && pwd)/target/release/finale}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; cd "$tmp"
$F generate --seed 1 --count 10 --empties 10-14 > p10.obf
$F generate --seed 7 --count 60 --empties 14-18 > b60.obf
cp p10.obf w.obf; $F suite p10.obf --csv s.csv --no-progress >/dev/null
show() { echo "\$ $*"; timeout 60 "$@" > out.txt 2> err.txt; echo "exit $?"; head -c 600 err.txt | head -3; }
echo "## 1. outputs over inputs"
show $F suite w.obf --csv w.obf --no-progress; cmp -s w.obf p10.obf && echo "w.obf intact"
show $F eval --file w.obf --csv w.obf; cmp -s w.obf p10.obf && echo "w.obf intact"
show $F report s.csv --svg s.csv
$F report s.csv --svg r.svg >/dev/null 2>&1; show $F report s.csv --svg r.svg
echo "## 2. resume with another mode"
$F batch b60.obf --out wl.csv --mode wld --no-progress >/dev/null 2>&1
show $F batch b60.obf --out wl.csv --no-progress; grep -E "already done|solved" out.txt | head -3
echo "## 3. empties 0"
show $F generate --count 1 --empties 0
show $F generate --count 1 --empties 0-9
show $F train-mpc --empties 0
echo "## 4. a repeated position with a wrong value"
line=$(grep -v '^%' p10.obf | head -1 | cut -d' ' -f1-2)
printf '%s\n%s ;A8:+17;\n' "$line" "$line" > rep.obf
show $F batch rep.obf --out rep.csv --no-progress; grep -E "^wrong" out.txt | head -2
echo "## 5. compare of one CSV with two variants"
$F suite p10.obf --repeat 2 --variant='' --variant='--no-etc' --csv rv.csv --no-progress > suite.txt 2>&1
grep -iE "nodes x|time x|geomean|ratio" suite.txt | head -3
show $F compare rv.csv; grep -iE "comparison:|nodes x|time x|geomean|ratio" out.txt | head -4
echo "## 6. threads the system refuses"
show sh -c "ulimit -v 1500000; $F solve --threads 3000 --oversubscribe --hash-mb 16 '$line'"
echo "## 7. train to an unwritable --out"
mkdir adir
show $F train --out nodir/w.bin
show $F train --out adir --force
echo "## 8. a torn last row"
head -c -20 s.csv > torn.csv
show $F compare torn.csv s.csv
show $F report torn.csv --svg t.svg
echo "## 9. impossible values in merge and resume"
$F batch p10.obf --out good.csv --no-progress >/dev/null 2>&1
python3 - <<'PY'
import csv
rows=list(csv.reader(open('good.csv')))
h=rows[0]
r=list(rows[1]); r[h.index('score')]='99'
csv.writer(open('bad.csv','w')).writerows([h,r])
PY
show $F merge bad.csv --out m.csv
show $F batch p10.obf --out bad.csv --no-progress
echo "## 11. messages"
show $F solve --time-limit 1e9 "$line"
printf '\xef\xbb\xbf%s\n' "$line" > bom.obf; show $F solve --file bom.obf; head -1 out.txt
head -c 300 /dev/urandom > g.obf; show $F solve --file g.obf
head -1 s.csv > hdr.csv; show $F compare hdr.csv
cp $F finale-old; show $F suite p10.obf --binary finale-old --csv b.csv --no-progress
show $F suite p10.obf --binary /bin/false --csv f.csv --no-progress
echo "## 12. --help"
$F solve --help | grep -A1 "exact"
echo "## 13. batch --help"
$F batch --help | grep -c selectivity
echo "## 14. out of range"
show $F suite p10.obf --repeat 0
show $F train --exact-max-empties 61 --out x.bin
show $F batch b60.obf --out sh.csv --shard 1/2 --shards 3
show $F train-mpc --selectivity 73
show $F train-mpc --rate 0 --from-search p10.obf
show $F solve --moves ""
echo "## 15. outputs over devices and pipes (issue 67): each exit 2, the device as it was"
# Devices through symlinks in this folder: a guard that failed would replace the link, never
# the machine's /dev/null.
ln -s /dev/null null; ln -s /dev/full full; mkfifo pipe
printf '\x14\x1a\x0b\x1d\x01\x00\x00\x00\x00\x00\xd1\x07\x08\x00\x18\x00' > g.wtb
head -c 68 /dev/zero >> g.wtb
for out in null full pipe; do
  show $F games g.wtb --out $out
  show $F train --out $out --force --games 10
  [ -L $out ] || [ -p $out ] || echo "$out was replaced"
done
echo "## 16. outputs over the command's other inputs (issue 67): each exit 2, the input as it was"
head -c 16 /dev/zero > WTHOR.JOU; mkdir names; head -c 16 /dev/zero > names/WTHOR.TRN
line1=$(grep -v '^%' p10.obf | head -1 | cut -d' ' -f1-2)
echo "$line1; +0;" > r.obf; cp r.obf r0.obf
show $F games g.wtb --out WTHOR.JOU; cmp -s WTHOR.JOU <(head -c 16 /dev/zero) && echo "WTHOR.JOU intact"
show $F games g.wtb --names names --out names/WTHOR.TRN
show $F train --real r.obf --data r.obf --out never.bin
show $F train --real r.obf --out r.obf --force
cp "$(cd "$(dirname "$F")/../.." && pwd)/weights/eval.bin" w.bin; cp w.bin w0.bin
show $F train --play-eval w.bin --out w.bin --force
show $F eval --moves f5 --eval w.bin --csv w.bin
show $F suite p10.obf --eval w.bin --csv w.bin
cmp -s r.obf r0.obf && cmp -s w.bin w0.bin && echo "r.obf and w.bin intact"
echo "## 17. resume with other weights, depth or mode (issue 67): each exit 2"
$F batch p10.obf --out L.csv --label-depth 2 --no-progress >/dev/null 2>&1
cp L.csv L0.csv
show $F batch p10.obf --out L.csv --label-depth 2 --eval "$(cd "$(dirname "$F")/../.." && pwd)/fuzz/seeds/weights/zeros.bin" --no-progress
show $F batch p10.obf --out L.csv --label-depth 3 --no-progress
show $F batch p10.obf --out L.csv --no-progress
cmp -s L.csv L0.csv && echo "L.csv intact"
echo "## 18. names, endless inputs (issue 67)"
show $F games g.wtb --names /nonexistent --out o.obf
show $F games g.wtb --names g.wtb --out o.obf
show $F games g.wtb --names names --player X --out o.obf
show $F games /dev/zero --out o.obf
show $F games pipe --out o.obf
echo "## 19. SIGTERM during games (issue 67): one error line, exit 143, no temporary file"
awk 'BEGIN { for (i = 0; i < 200000; i++) print "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4" }' > many.txt
$F games many.txt --empties 36-59 --out m.obf 2> err.txt & pid=$!
sleep 0.3; kill -TERM $pid; wait $pid; echo "exit $?"; head -2 err.txt
ls -a | grep -c '^\.finale-' || true
echo "## 20. labels-obf.py on labels of two depths: an error, nothing written"
$F batch p10.obf --out L3.csv --label-depth 3 --no-progress >/dev/null 2>&1
python3 "$(cd "$(dirname "$F")/../.." && pwd)/scripts/labels-obf.py" L.csv L3.csv > two.obf; echo "exit $?"; wc -c < two.obf
