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
# The job summary takes at most 1 MiB per step. Characters, not bytes, are counted below, and a
# character can take up to 4 bytes in UTF-8; replays are mostly ASCII, so a quarter of the limit
# would be too cautious: 700 000 characters leaves room for some non-ASCII text.
limit=${RETIE_EVIDENCE_MAX_CHARS:-700000}

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
# Each session's replay stays within its share of the limit, leaving out whole blocks (so the
# markdown stays well formed) with a note saying so; if non-ASCII text still makes it too many
# bytes, the share is halved and the replays rendered again.
if [[ ${#sessions[@]} -eq 0 ]]; then
  printf '### retie evidence: ledger verified (head %s), no agent sessions in it\n' "$head" >>"$summary"
  exit 0
fi
per=$((limit / ${#sessions[@]}))
((per < 1000)) && per=1000
md="$(mktemp)"
while true; do
  : >"$md"
  for s in "${sessions[@]}"; do
    args=(--ledger "$ledger" replay --markdown --max-chars "$per")
    [[ -n "$s" ]] && args+=("$s")
    if ! "${retie[@]}" "${args[@]}" >>"$md"; then
      echo "retie evidence: replay of ${s:-the last session} failed" >&2
      exit 2
    fi
    echo >>"$md"
  done
  if [[ $(wc -c <"$md") -le 1000000 || $per -le 2000 ]]; then break; fi
  per=$((per / 2))
done
cat "$md" >>"$summary"
