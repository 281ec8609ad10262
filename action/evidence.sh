#!/usr/bin/env bash
# Verifies a retie ledger and writes the markdown replay to the job summary. Used by action.yml;
# runnable on its own (tests/action/ runs it): set RETIE_EVIDENCE_LEDGER, GITHUB_STEP_SUMMARY and
# optionally RETIE_EVIDENCE_EXPECT_HEAD, RETIE_EVIDENCE_SESSION, GITHUB_OUTPUT, RETIE (the command).
#
# Exit 0: verified and replayed. Exit 1: the ledger does not verify (or not at the expected head):
# the summary says why, nothing is replayed. Exit 2: bad input (no ledger, unknown session).
set -uo pipefail
ledger="${RETIE_EVIDENCE_LEDGER:?set the ledger input (RETIE_EVIDENCE_LEDGER)}"
summary="${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set}"
out="${GITHUB_OUTPUT:-/dev/null}"
read -r -a retie <<<"${RETIE:-retie}"
# The job summary takes at most 1 MiB per step; the replay is cut below that with a note.
limit=$((1000 * 1000))

if [[ ! -f "$ledger" ]]; then
  echo "retie evidence: no ledger at $ledger (set the ledger input to the committed ledger file)" >&2
  printf '### retie evidence: no ledger\n\nNo ledger at `%s`.\n' "$ledger" >>"$summary"
  echo "verified=false" >>"$out"
  exit 2
fi

verify_args=(--ledger "$ledger" verify --json)
if [[ -n "${RETIE_EVIDENCE_EXPECT_HEAD:-}" ]]; then
  verify_args+=(--expect-head "$RETIE_EVIDENCE_EXPECT_HEAD")
fi
report="$(mktemp)"
"${retie[@]}" "${verify_args[@]}" >"$report"
code=$?
ok="$(deno eval --quiet 'const r = JSON.parse(Deno.readTextFileSync(Deno.args[0])); console.log(r.ok === true ? "true" : "false")' "$report" 2>/dev/null || echo false)"
if [[ $code -ne 0 || "$ok" != "true" ]]; then
  {
    echo "### retie evidence: ledger INVALID"
    echo
    echo "\`retie verify\` rejected \`$(basename "$ledger")\`; nothing is replayed from a ledger that does not verify."
    echo
    echo '```json'
    deno eval --quiet 'const r = JSON.parse(Deno.readTextFileSync(Deno.args[0])); console.log(JSON.stringify({ firstBad: r.firstBad, problems: (r.problems ?? []).slice(0, 20), headSeq: r.headSeq, headHash: r.headHash }, null, 2))' "$report" 2>/dev/null || cat "$report"
    echo '```'
  } >>"$summary"
  echo "retie evidence: the ledger does not verify (see the job summary)" >&2
  echo "verified=false" >>"$out"
  exit 1
fi
head="$(deno eval --quiet 'const r = JSON.parse(Deno.readTextFileSync(Deno.args[0])); console.log(`${r.headSeq}:${r.headHash}`)' "$report")"
echo "verified=true" >>"$out"
echo "head=$head" >>"$out"
echo "retie evidence: ledger verified, head $head"

sessions=()
if [[ "${RETIE_EVIDENCE_SESSION:-}" == "all" ]]; then
  mapfile -t sessions < <("${retie[@]}" --ledger "$ledger" replay --list | cut -f1)
elif [[ -n "${RETIE_EVIDENCE_SESSION:-}" ]]; then
  sessions=("$RETIE_EVIDENCE_SESSION")
else
  sessions=("")
fi
md="$(mktemp)"
for s in "${sessions[@]}"; do
  args=(--ledger "$ledger" replay --markdown)
  [[ -n "$s" ]] && args+=("$s")
  if ! "${retie[@]}" "${args[@]}" >>"$md"; then
    echo "retie evidence: replay of ${s:-the last session} failed" >&2
    exit 2
  fi
  echo >>"$md"
done
if [[ $(wc -c <"$md") -gt $limit ]]; then
  head -c "$limit" "$md" >>"$summary"
  printf '\n\n_The replay was cut at 1 MB (the job summary limit); run `retie replay --markdown` for all of it._\n' >>"$summary"
else
  cat "$md" >>"$summary"
fi
