#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# yaml-flat.sh: tests/yaml-flat (what the CI config tests read the shipped
# YAML with) flattens the subset it knows as YAML means it, and refuses,
# naming the line, what it does not know or YAML would read otherwise.
. "$(dirname "$0")/../tap.sh"
Y=$TOP/tests/yaml-flat
command -v perl > /dev/null || { echo "SKIP: no perl"; exit 77; }

cat > "$T/in.yml" <<'EOF2'
# a comment
top: plain value # trailing comment
quoted: "a: b # not a comment\tx"
single: 'it''s'
list: [a, "b c", 'd']
empty:
seq:
- one
- key: v
  other: w
nested:
  steps:
    - run: echo "$X" | cat
      env:
        K: ${{ matrix.k }}
    - run: |
        line 1
          line 2
      if: always()
EOF2
cat > "$T/want" <<'EOF2'
top	plain value
quoted	a: b # not a comment\tx
single	it's
list.0	a
list.1	b c
list.2	d
empty	
seq.0	one
seq.1.key	v
seq.1.other	w
nested.steps.0.run	echo "$X" | cat
nested.steps.0.env.K	${{ matrix.k }}
nested.steps.1.run	line 1\n  line 2\n
nested.steps.1.if	always()
EOF2
run "$Y" "$T/in.yml"
check "the subset, flattened" exits 0
check "  as YAML reads it" same_file "$T/want" "$T/out"

# refuse LINE TEXT WHAT: a file whose line 2 is TEXT is refused, naming line 2 and WHAT
refuse() {
	printf 'a: 1\n%s\n' "$2" > "$T/bad.yml"
	run "$Y" "$T/bad.yml"
	want_err=$3
	check "refused: $1" eval '[ $rc != 0 ] && grep -q "bad.yml:2: .*$want_err" "$T/err"'
}
refuse "a plain scalar YAML reads as a mapping" "- echo shard: 2" "quote it"
refuse "an anchor" "b: &x 1" "unsupported"
refuse "a flow mapping" "b: {c: 1}" "unsupported"
refuse "a folded scalar" "b: >" "unsupported"
refuse "a duplicate key" "a: 2" "duplicate key"
refuse "an unclosed quote" "b: \"x" "unclosed"
refuse "a tab indent" "$(printf '\tb: 1')" "tab"
done_testing
