#!/usr/bin/env bash
# The action's check step, run in the repository ($GITHUB_WORKSPACE, the step's folder):
# `tool-lens check` in the chosen format on the log (github: annotations), then the JSON report
# rendered as a Markdown table into $GITHUB_STEP_SUMMARY, the SARIF file if one was asked for, and
# the exit code as the step's `exit-code` output and its own status. A usage or internal error
# (exit 2 or 3) stops at once: there is no report to summarise.
set -uo pipefail
cli="$TOOL_LENS_HOME/dist/cli.js"
# Paths are split on whitespace only (no glob expansion: the CLI expands its own arguments).
set -f
read -r -d '' -a paths <<< "$TOOL_LENS_PATHS"
set +f
[ ${#paths[@]} -gt 0 ] || paths=(.)
# The options first, then `--`: every path after it is a path, even one named like an option
# (a changed file called `--help` is checked, not taken for the flag).
options=(--fail-on "$TOOL_LENS_FAIL_ON" --no-color)

node "$cli" check "${options[@]}" --format "$TOOL_LENS_FORMAT" -- "${paths[@]}"
status=$?
echo "exit-code=$status" >> "${GITHUB_OUTPUT:-/dev/null}"
[ "$status" -le 1 ] || exit "$status"

report="$(mktemp "${RUNNER_TEMP:-/tmp}/tool-lens-report.XXXXXX")"
node "$cli" check "${options[@]}" --format json -- "${paths[@]}" > "$report"
again=$?
if [ "$again" -le 1 ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  node "$TOOL_LENS_HOME/action/summary.mjs" "$report" >> "$GITHUB_STEP_SUMMARY" || status=3
fi
rm -f "$report"
[ "$again" -le 1 ] || exit "$again"

if [ -n "$TOOL_LENS_SARIF_FILE" ]; then
  mkdir -p "$(dirname "$TOOL_LENS_SARIF_FILE")"
  node "$cli" check "${options[@]}" --format sarif -- "${paths[@]}" > "$TOOL_LENS_SARIF_FILE"
  sarif=$?
  [ "$sarif" -le 1 ] || exit "$sarif"
  echo "SARIF written to $TOOL_LENS_SARIF_FILE"
fi
exit "$status"
