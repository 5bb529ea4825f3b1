package debatetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// ToolServer is a scripted model that tries to change the repository it is
// asked about. It speaks three wire formats, streamed (SSE) or not:
// OpenAI chat completions at /v1/chat/completions (qwen, opencode), OpenAI
// Responses at /v1/responses (codex) and Anthropic messages at
// /v1/messages (claude-agent-acp).
//
// A request that declares tools is the agent's conversation: each reply is
// one tool call, in this order, then a final text answer:
//
//  1. write a new file (WroteFile) with the agent's write tool;
//  2. edit an existing file (EditFile: EditOld becomes EditNew), reading it
//     first when the agent has an edit tool (they refuse to edit a file not
//     read);
//  3. run the shell command `touch TouchedFile`.
//
// Where it is in the script comes from the tool calls already in the
// conversation; which tool it calls, and with what arguments, from the tools
// the request declares (a write falls back to an apply_patch tool or the
// shell when the agent offers no write tool). A request without tools (a
// title, a summary) gets a short plain answer.
type ToolServer struct {
	*httptest.Server
	opt ToolOptions

	mu   sync.Mutex
	reqs []ToolRequest
	n    atomic.Int64
}

// ToolOptions name the files the script touches; the zero value gives the
// defaults below. Paths are relative to the agent's working directory,
// which the server reads from the conversation (the agents all state it)
// or takes from Dir.
type ToolOptions struct {
	WroteFile   string // default ROUNDTABLE_WROTE.txt
	EditFile    string // default NOTES.md
	EditOld     string // default "cron"
	EditNew     string // default "ROUNDTABLE_EDITED"
	TouchedFile string // default ROUNDTABLE_TOUCHED
	Final       string // the last answer; default a sentence saying what was tried
	Dir         string // the working directory when the conversation does not say
	LogDir      string // when set, every request body is written there (for development)
}

// Default names of what the script writes.
const (
	ToolWroteFile   = "ROUNDTABLE_WROTE.txt"
	ToolWroteText   = "written by the scripted model\n"
	ToolEditFile    = "NOTES.md"
	ToolEditOld     = "cron"
	ToolEditNew     = "ROUNDTABLE_EDITED"
	ToolTouchedFile = "ROUNDTABLE_TOUCHED"
)

// ToolRequest is one request the server answered.
type ToolRequest struct {
	Path   string   // /v1/chat/completions, /v1/responses or /v1/messages
	Tools  []string // the names of the tools it declared
	Stream bool
	Reply  string // "write:<tool>", "read:<tool>", "edit:<tool>", "shell:<tool>", "final" or "plain"
}

// NewToolServer starts a ToolServer, closed when the test ends.
func NewToolServer(t testing.TB, opt ToolOptions) *ToolServer {
	t.Helper()
	ts := NewToolHandler(opt)
	ts.Server = httptest.NewServer(ts)
	t.Cleanup(ts.Close)
	return ts
}

// NewToolHandler is the server's handler without a listener, for a caller
// that serves it itself.
func NewToolHandler(opt ToolOptions) *ToolServer {
	if opt.WroteFile == "" {
		opt.WroteFile = ToolWroteFile
	}
	if opt.EditFile == "" {
		opt.EditFile = ToolEditFile
	}
	if opt.EditOld == "" {
		opt.EditOld = ToolEditOld
	}
	if opt.EditNew == "" {
		opt.EditNew = ToolEditNew
	}
	if opt.TouchedFile == "" {
		opt.TouchedFile = ToolTouchedFile
	}
	if opt.Final == "" {
		opt.Final = "I tried to write " + opt.WroteFile + ", edit " + opt.EditFile + " and touch " + opt.TouchedFile + "; that is my answer."
	}
	return &ToolServer{opt: opt}
}

// Requests are the requests answered so far, in order.
func (ts *ToolServer) Requests() []ToolRequest {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return slices.Clone(ts.reqs)
}

// Replies are the Reply fields of the requests so far.
func (ts *ToolServer) Replies() []string {
	var out []string
	for _, r := range ts.Requests() {
		out = append(out, r.Reply)
	}
	return out
}

// tool is one tool a request declares, in any of the three formats.
type tool struct {
	name      string
	namespace string // a Responses function grouped under a namespace (Codex's MCP servers)
	kind      string // "function", or codex's "custom" (free-form input) and "local_shell"
	params    map[string]any
}

// call is the tool call chosen for a reply.
type call struct {
	step   string // write, read, edit, shell
	tool   tool
	args   map[string]any // for a function tool
	input  string         // for a custom tool
	action []string       // for local_shell
}

func (ts *ToolServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ServeMeta(w, r) {
		return
	}
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	n := ts.n.Add(1)
	if ts.opt.LogDir != "" {
		name := fmt.Sprintf("%03d%s.json", n, strings.ReplaceAll(r.URL.Path, "/", "_"))
		_ = os.WriteFile(filepath.Join(ts.opt.LogDir, name), body, 0o600)
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "the body is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	stream, _ := req["stream"].(bool)
	format := WireFormat(r.URL.Path)
	if format == "" {
		http.NotFound(w, r)
		return
	}
	tools := declaredTools(req["tools"])
	rec := ToolRequest{Path: r.URL.Path, Stream: stream}
	for _, t := range tools {
		rec.Tools = append(rec.Tools, t.name)
	}
	var c *call
	text := "Noted."
	if scripted(tools) {
		made := callsMade(format, req)
		c = ts.next(tools, made, ts.workDir(string(body)))
		if c == nil {
			text = ts.opt.Final
			rec.Reply = "final"
		} else {
			rec.Reply = c.step + ":" + c.tool.name
		}
	} else {
		rec.Reply = "plain"
	}
	ts.mu.Lock()
	ts.reqs = append(ts.reqs, rec)
	ts.mu.Unlock()
	id := "rt" + strconv.FormatInt(n, 10)
	switch format {
	case "chat":
		writeChat(w, stream, id, c, text)
	case "responses":
		writeResponses(w, stream, id, c, text)
	default:
		writeMessages(w, stream, id, c, text)
	}
}

// declaredTools reads a request's tools in any of the formats:
// {"type":"function","function":{"name",...,"parameters"}} (chat),
// {"type":"function","name",...,"parameters"} and {"type":"custom",...}
// (responses), {"name",...,"input_schema"} (messages).
func declaredTools(v any) []tool {
	list, _ := v.([]any)
	var out []tool
	for _, x := range list {
		m, _ := x.(map[string]any)
		if m == nil {
			continue
		}
		t := tool{kind: "function"}
		if typ, _ := m["type"].(string); typ == "custom" || typ == "local_shell" {
			t.kind = typ
		}
		if f, ok := m["function"].(map[string]any); ok {
			m = f
		}
		t.name, _ = m["name"].(string)
		if t.kind == "local_shell" && t.name == "" {
			t.name = "local_shell"
		}
		t.params, _ = m["parameters"].(map[string]any)
		if t.params == nil {
			t.params, _ = m["input_schema"].(map[string]any)
		}
		if t.name != "" {
			out = append(out, t)
		}
	}
	return out
}

// scripted reports whether a request is the agent's conversation: it
// declares a tool the script can use. A side request (a title, a
// classifier answering through one schema tool) is not.
func scripted(tools []tool) bool {
	for _, names := range [][]string{writeNames, editNames, shellNames, patchNames} {
		if _, ok := findTool(tools, names); ok {
			return true
		}
	}
	return false
}

// callsMade counts the tool calls the model already made in the
// conversation: the script's place.
func callsMade(format string, req map[string]any) int {
	n := 0
	switch format {
	case "chat":
		msgs, _ := req["messages"].([]any)
		for _, x := range msgs {
			m, _ := x.(map[string]any)
			if m["role"] == "assistant" {
				calls, _ := m["tool_calls"].([]any)
				n += len(calls)
			}
		}
	case "responses":
		items, _ := req["input"].([]any)
		for _, x := range items {
			m, _ := x.(map[string]any)
			switch m["type"] {
			case "function_call", "custom_tool_call", "local_shell_call":
				n++
			}
		}
	default:
		msgs, _ := req["messages"].([]any)
		for _, x := range msgs {
			m, _ := x.(map[string]any)
			if m["role"] != "assistant" {
				continue
			}
			blocks, _ := m["content"].([]any)
			for _, b := range blocks {
				if bm, _ := b.(map[string]any); bm["type"] == "tool_use" {
					n++
				}
			}
		}
	}
	return n
}

// cwdPatterns find the working directory in the agents' prompts.
var cwdPatterns = []*regexp.Regexp{
	regexp.MustCompile(`<cwd>([^<]+)</cwd>`),
	regexp.MustCompile(`(?i)working directory(?: is)?:\s*(/[^\s"\\<]+)`),
	regexp.MustCompile(`(?i)working in the directory:?\s*(/[^\s"\\<]+)`),
}

// workDir is the agent's working directory as its prompt states it, else
// the configured one; "" leaves paths relative.
func (ts *ToolServer) workDir(body string) string {
	for _, re := range cwdPatterns {
		if m := re.FindStringSubmatch(body); m != nil {
			return strings.TrimRight(m[1], ".,;`'")
		}
	}
	return ts.opt.Dir
}

// Names of the tools each attempt looks for, lower case.
var (
	writeNames = []string{"write_file", "write", "create_file", "writefile"}
	editNames  = []string{"replace", "edit", "edit_file", "str_replace_based_edit_tool", "editfile"}
	shellNames = []string{"run_shell_command", "bash", "shell", "exec_command", "local_shell", "shell_command", "run_terminal_cmd"}
	patchNames = []string{"apply_patch"}
	// codex's shell tools take an apply_patch command as an edit through
	// its patch tool (it offers that tool to a model it knows, not to an
	// unknown one like the tests').
	codexShellNames = []string{"shell_command", "exec_command", "shell"}
	readNames       = []string{"read_file", "read", "view"}
)

func findTool(tools []tool, names []string) (tool, bool) {
	for _, name := range names {
		for _, t := range tools {
			if strings.EqualFold(t.name, name) {
				return t, true
			}
		}
	}
	return tool{}, false
}

// next is the call for the attempt after made calls, or nil when the
// script is done. An attempt no declared tool can make is passed over.
func (ts *ToolServer) next(tools []tool, made int, dir string) *call {
	abs := func(p string) string {
		if dir == "" {
			return p
		}
		return filepath.Join(dir, p)
	}
	attempts := []func() *call{
		func() *call { // write a new file
			if t, ok := findTool(tools, writeNames); ok {
				return &call{step: "write", tool: t, args: fill(t, map[string]string{
					"path": abs(ts.opt.WroteFile), "content": ToolWroteText,
				})}
			}
			patch := "*** Begin Patch\n*** Add File: " + ts.opt.WroteFile + "\n+" + strings.TrimSuffix(ToolWroteText, "\n") + "\n*** End Patch\n"
			if t, ok := findTool(tools, patchNames); ok {
				return patchCall("write", t, patch)
			}
			if t, ok := findTool(tools, codexShellNames); ok {
				return shellCall("write", t, shellPatch(patch))
			}
			if t, ok := findTool(tools, shellNames); ok {
				return shellCall("write", t, "printf '%s' '"+ToolWroteText+"' > "+ts.opt.WroteFile)
			}
			return nil
		},
		func() *call { // read the file to edit: the agents' edit tools refuse a file not read first
			if _, ok := findTool(tools, editNames); !ok {
				return nil
			}
			if t, ok := findTool(tools, readNames); ok {
				return &call{step: "read", tool: t, args: fill(t, map[string]string{"path": abs(ts.opt.EditFile)})}
			}
			return nil
		},
		func() *call { // edit an existing file
			if t, ok := findTool(tools, editNames); ok {
				return &call{step: "edit", tool: t, args: fill(t, map[string]string{
					"path": abs(ts.opt.EditFile), "old": ts.opt.EditOld, "new": ts.opt.EditNew,
				})}
			}
			patch := "*** Begin Patch\n*** Update File: " + ts.opt.EditFile + "\n@@\n-" + ts.editLine() + "\n+" + strings.Replace(ts.editLine(), ts.opt.EditOld, ts.opt.EditNew, 1) + "\n*** End Patch\n"
			if t, ok := findTool(tools, patchNames); ok {
				return patchCall("edit", t, patch)
			}
			if t, ok := findTool(tools, codexShellNames); ok {
				return shellCall("edit", t, shellPatch(patch))
			}
			if t, ok := findTool(tools, shellNames); ok {
				return shellCall("edit", t, "sed -i 's/"+ts.opt.EditOld+"/"+ts.opt.EditNew+"/' "+ts.opt.EditFile)
			}
			return nil
		},
		func() *call { // run a command
			if t, ok := findTool(tools, shellNames); ok {
				return shellCall("shell", t, "touch "+ts.opt.TouchedFile)
			}
			return nil
		},
	}
	skipped := 0
	for i, a := range attempts {
		c := a()
		if c == nil {
			skipped++
			continue
		}
		if i-skipped == made {
			return c
		}
	}
	return nil
}

// editLine is the line of the default NOTES.md the patch edit changes.
func (ts *ToolServer) editLine() string {
	return "Nightly jobs run from " + ts.opt.EditOld + " on one host."
}

// shellPatch is patch as the apply_patch command codex's shell tools
// intercept.
func shellPatch(patch string) string {
	return "apply_patch <<'EOF'\n" + patch + "EOF\n"
}

func patchCall(step string, t tool, patch string) *call {
	if t.kind == "custom" {
		return &call{step: step, tool: t, input: patch}
	}
	return &call{step: step, tool: t, args: map[string]any{"input": patch}}
}

// shellCall runs command with a shell tool: codex's shell takes an argv,
// exec_command a cmd string, local_shell an action; the rest a command
// string.
func shellCall(step string, t tool, command string) *call {
	c := &call{step: step, tool: t}
	if t.kind == "local_shell" {
		c.action = []string{"bash", "-lc", command}
		return c
	}
	props, _ := t.params["properties"].(map[string]any)
	args := map[string]any{}
	switch {
	case props["cmd"] != nil:
		args["cmd"] = command
	case isArray(props["command"]):
		args["command"] = []string{"bash", "-lc", command}
	default:
		args["command"] = command
	}
	if props["description"] != nil {
		args["description"] = "Touch a file"
	}
	c.args = args
	return c
}

func isArray(v any) bool {
	m, _ := v.(map[string]any)
	return m != nil && m["type"] == "array"
}

// fill maps the script's arguments (path, content, old, new) onto the
// parameter names a tool's schema uses.
func fill(t tool, want map[string]string) map[string]any {
	props, _ := t.params["properties"].(map[string]any)
	roles := map[string][]string{
		"path":    {"file_path", "filePath", "absolute_path", "path", "file", "filename"},
		"content": {"content", "contents", "text", "file_text"},
		"old":     {"old_string", "oldString", "old_str", "old_text", "old"},
		"new":     {"new_string", "newString", "new_str", "new_text", "new"},
	}
	args := map[string]any{}
	for role, v := range want {
		for _, k := range roles[role] {
			if _, ok := props[k]; ok {
				args[k] = v
				break
			}
		}
	}
	// An edit tool that takes a command (str_replace_based_edit_tool).
	if _, ok := props["command"]; ok && want["old"] != "" {
		args["command"] = "str_replace"
	}
	return args
}

// SSE framing.
func sse(w http.ResponseWriter, event string, v any) {
	b, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func argsJSON(c *call) string {
	b, _ := json.Marshal(c.args)
	return string(b)
}

var chatUsage = map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}

// writeChat answers in OpenAI's chat completions format.
func writeChat(w http.ResponseWriter, stream bool, id string, c *call, text string) {
	finish := "stop"
	msg := map[string]any{"role": "assistant", "content": text}
	var calls []any
	if c != nil {
		finish = "tool_calls"
		calls = []any{map[string]any{"index": 0, "id": "call_" + id, "type": "function", "function": map[string]any{"name": c.tool.name, "arguments": argsJSON(c)}}}
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}
	}
	if !stream {
		writeJSONBody(w, map[string]any{
			"id": "chatcmpl-" + id, "object": "chat.completion", "created": 1, "model": "tiny",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   chatUsage,
		})
		return
	}
	startSSE(w)
	chunk := func(delta map[string]any, fin any, usage any) {
		ch := map[string]any{
			"id": "chatcmpl-" + id, "object": "chat.completion.chunk", "created": 1, "model": "tiny",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}},
		}
		if usage != nil {
			ch["usage"] = usage
		}
		sse(w, "", ch)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	if c != nil {
		chunk(map[string]any{"tool_calls": calls}, nil, nil)
	} else {
		chunk(map[string]any{"content": text}, nil, nil)
	}
	chunk(map[string]any{}, finish, chatUsage)
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

// writeResponses answers in OpenAI's Responses format.
func writeResponses(w http.ResponseWriter, stream bool, id string, c *call, text string) {
	var item map[string]any
	switch {
	case c == nil:
		item = map[string]any{
			"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
		}
	case c.tool.kind == "custom":
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": "call_" + id, "name": c.tool.name, "input": c.input, "status": "completed"}
	case c.tool.kind == "local_shell":
		item = map[string]any{
			"type": "local_shell_call", "id": "lsc_" + id, "call_id": "call_" + id, "status": "completed",
			"action": map[string]any{"type": "exec", "command": c.action, "env": map[string]any{}},
		}
	default:
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id, "name": c.tool.name, "arguments": argsJSON(c), "status": "completed"}
		if c.tool.namespace != "" {
			item["namespace"] = c.tool.namespace
		}
	}
	usage := map[string]any{
		"input_tokens": 100, "output_tokens": 10, "total_tokens": 110,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
	}
	resp := map[string]any{
		"id": "resp_" + id, "object": "response", "created_at": 1, "model": "tiny", "status": "completed",
		"output": []any{item}, "usage": usage,
	}
	if !stream {
		writeJSONBody(w, resp)
		return
	}
	startSSE(w)
	seq := 0
	ev := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		sse(w, typ, fields)
	}
	inProgress := map[string]any{"id": "resp_" + id, "object": "response", "created_at": 1, "model": "tiny", "status": "in_progress", "output": []any{}}
	ev("response.created", map[string]any{"response": inProgress})
	ev("response.in_progress", map[string]any{"response": inProgress})
	if c == nil {
		empty := map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "in_progress", "content": []any{}}
		ev("response.output_item.added", map[string]any{"output_index": 0, "item": empty})
		ev("response.content_part.added", map[string]any{"item_id": "msg_" + id, "output_index": 0, "content_index": 0, "part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		ev("response.output_text.delta", map[string]any{"item_id": "msg_" + id, "output_index": 0, "content_index": 0, "delta": text})
		ev("response.output_text.done", map[string]any{"item_id": "msg_" + id, "output_index": 0, "content_index": 0, "text": text})
		ev("response.content_part.done", map[string]any{"item_id": "msg_" + id, "output_index": 0, "content_index": 0, "part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}}})
	} else {
		ev("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	}
	ev("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	ev("response.completed", map[string]any{"response": resp})
}

// writeMessages answers in Anthropic's messages format.
func writeMessages(w http.ResponseWriter, stream bool, id string, c *call, text string) {
	block := map[string]any{"type": "text", "text": text}
	stop := "end_turn"
	if c != nil {
		block = map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": c.tool.name, "input": c.args}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10}
	if !stream {
		writeJSONBody(w, map[string]any{
			"id": "msg_" + id, "type": "message", "role": "assistant", "model": "tiny",
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_" + id, "type": "message", "role": "assistant", "model": "tiny", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 100, "output_tokens": 1},
	}})
	if c != nil {
		sse(w, "content_block_start", map[string]any{
			"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": c.tool.name, "input": map[string]any{}},
		})
		sse(w, "content_block_delta", map[string]any{
			"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": argsJSON(c)},
		})
	} else {
		sse(w, "content_block_start", map[string]any{
			"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""},
		})
		sse(w, "content_block_delta", map[string]any{
			"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text},
		})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{
		"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10},
	})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// WriteReply answers a model request in format ("chat", "responses" or
// "messages", as ToolServer speaks them), streamed or not: one call of the
// function tool name with args, or text when name is "". A Responses
// function of a namespace (Codex groups an MCP server's tools so) is
// named "namespace/function". Other scripted models of the tests (a seat
// played through a room's tools) answer with it.
func WriteReply(w http.ResponseWriter, format string, stream bool, id, name string, args map[string]any, text string) {
	var c *call
	if name != "" {
		t := tool{name: name, kind: "function"}
		if ns, fn, ok := strings.Cut(name, "/"); ok && format == "responses" {
			t.namespace, t.name = ns, fn
		}
		c = &call{step: "call", tool: t, args: args}
	}
	switch format {
	case "chat":
		writeChat(w, stream, id, c, text)
	case "responses":
		writeResponses(w, stream, id, c, text)
	case "gemini":
		writeGemini(w, stream, c, text)
	default:
		writeMessages(w, stream, id, c, text)
	}
}

// writeGemini answers in Google's generateContent format: one response,
// or (streamGenerateContent?alt=sse) the same as one SSE chunk.
func writeGemini(w http.ResponseWriter, stream bool, c *call, text string) {
	part := map[string]any{"text": text}
	if c != nil {
		args := c.args
		if args == nil {
			args = map[string]any{}
		}
		part = map[string]any{"functionCall": map[string]any{"name": c.tool.name, "args": args}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "tiny",
	}
	if !stream {
		writeJSONBody(w, resp)
		return
	}
	startSSE(w)
	sse(w, "", resp)
}

// GeminiStream reports whether a Gemini request's path asks for a stream.
func GeminiStream(path string) bool { return strings.HasSuffix(path, ":streamGenerateContent") }

// ServeMeta answers the requests an agent makes of a model server besides
// its turns (the model list, a token count) and reports whether r was one.
func ServeMeta(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"tiny","object":"model","created":1,"owned_by":"roundtable"}]}`)
		return true
	case strings.HasSuffix(r.URL.Path, "/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens":100}`)
		return true
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"totalTokens":100}`)
		return true
	}
	return false
}

// WireFormat is the wire format a model request's path asks for, as
// WriteReply takes it: "chat", "responses", "messages" or "gemini"
// (Google's generateContent; GeminiStream says whether it streams); ""
// for none.
func WireFormat(path string) string {
	switch {
	case strings.HasSuffix(path, ":generateContent"), strings.HasSuffix(path, ":streamGenerateContent"):
		return "gemini"
	case strings.HasSuffix(path, "/chat/completions"):
		return "chat"
	case strings.HasSuffix(path, "/responses"):
		return "responses"
	case strings.HasSuffix(path, "/messages"):
		return "messages"
	}
	return ""
}
