package main

import (
	"github.com/roundtable-dev/roundtable/debate"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newDebateCmd) }

func newDebateCmd() *cobra.Command {
	var d debateFlags
	var format, resume string
	var notes interjectFlags
	c := &cobra.Command{
		Use:   "debate --topic T",
		Short: "Run a persona debate without a screen and save it as a room",
		Long: `Personas argue a decision round by round, each seeing every earlier turn;
then a moderator gives a verdict. The debate is saved as a room under
<cwd>/.roundtable/ and printed as live text, JSON lines (one event a line),
or a Markdown transcript at the end.

Providers: mock (default, no key), openrouter (OPENROUTER_API_KEY), openai
(OPENAI_API_KEY), ollama (local). --base-url points any of them at another
OpenAI-compatible server (LM Studio, vLLM, llama.cpp), which needs no key.

Personas: the default trio, plus ` + "`" + `personas.toml` + "`" + ` in your config folder when
present, replaced by --personas FILE, plus each --agent "Name=who they are".

Coding agents: --agent "Claude=acp:claude" has a coding agent speak for a
persona over ACP (presets claude, codex, gemini, qwen, opencode, or
acp:<command>), one process per persona, working in --cwd. Agents may read
and search; edits and commands are refused unless --allow-agent-tools
write|exec|write,exec. Roundtable does not only answer their permission
requests: it holds each preset with its own restraints, loosened only as
far as --allow-agent-tools says. Read-only, claude runs in its dontAsk mode
(edits and commands denied without asking), codex in its read-only sandbox
(commands run but cannot write; exec lets them write inside --cwd),
qwen in plan mode (--approval-mode plan), opencode in plan mode with edit
and bash denied through OPENCODE_PERMISSION (and GIT_DIR pointing nowhere,
so it leaves .git alone). Gemini (not seen here under its restraints) and
any acp:<command> agent work on a disposable copy of --cwd (your files as
they are, in a repository at your HEAD; nothing under your .git is
written), shown in the column; --allow-agent-tools write runs them in
place. With some tools allowed, an agent in a mode that approves its own
edits or commands is switched to one that asks. Stopping a debate stops
every process an agent started, also one that left its process group.

Cost: tokens and dollars are counted per persona and in all, and saved
with each message. Dollars come from the provider (OpenRouter reports
them) or from a price table in a personas file: [prices."MODEL"] with
prompt = D and completion = D, US dollars per million tokens. --max-cost
and --max-tokens-total stop the debate once its total reaches them; the
moderator then gives a verdict on what was said and the room closes
complete, naming the budget.

Retry: a debate whose turn failed (a connection cut, HTTP 500 after the
retries, an agent that crashed) goes on from that turn in the same room
with --resume ROOM; what was said stays, the cut turn is kept marked
incomplete and spoken again. So does a debate that was stopped: ctrl+c,
SIGTERM or a hang-up (the terminal closed) saves the turn being spoken,
closes the room saying why and exits 130. A debate whose process was
killed outright leaves its room open with nobody running it: --resume
closes it as failed and goes on from the last saved turn.` + interjectHelp,
		Example: `  roundtable debate --topic "Should we adopt GraphQL" --rounds 2
  roundtable debate --topic "Move to Kubernetes" --agent "Cost Optimizer=a finance-minded reviewer who scrutinizes spend and ROI"
  roundtable debate --topic "Rewrite the billing service in Rust" --provider openrouter --format jsonl
  roundtable debate --topic "Split the store package" --agent "Claude=acp:claude" --agent "Codex=acp:codex"
  roundtable debate --topic "Adopt GraphQL" --rounds 3 --interject-from notes.txt
  roundtable debate --topic "Adopt Rust" --provider openrouter --max-cost 0.25
  roundtable debate --resume should-we-adopt-graphql-20261130-142010`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, _, err := d.settings()
			if err == nil {
				err = checkResume(cmd, resume)
			}
			if err == nil {
				// A closed output (roundtable debate … | head -5) is a
				// write error to handle, stopping and closing the room,
				// not a signal that kills the process mid-save.
				ignoreSIGPIPE()
				// On a terminal the text breaks at words, not where the
				// terminal's own wrap cuts them.
				opts := debate.HeadlessOptions{Settings: s, Format: format, Resume: resume, Width: textWidth(cmd.OutOrStdout())}
				var done func()
				if done, err = notes.options(&opts, cmd.InOrStdin()); err == nil {
					err = debate.RunHeadless(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
					done()
				}
			}
			if debate.IsUsage(err) {
				return asUsage(err)
			}
			return err
		},
	}
	d.add(c, "the decision to debate (required)", "room name to save the debate in (default: from the topic and time)")
	notes.add(c)
	c.Flags().StringVar(&format, "format", debate.FormatText, "output: text (live), jsonl (events) or md (transcript at the end)")
	c.Flags().Var(&roomFlag{p: &resume}, "resume", "continue the debate of a room (its name or folder) that failed, was stopped or whose process died, in the same room, from the turn that did not finish")
	return c
}
