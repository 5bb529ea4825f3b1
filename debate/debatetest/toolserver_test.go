package debatetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// post sends body to the server and returns the reply's text.
func post(t *testing.T, url string, body any) string {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s: %s", url, resp.Status, out)
	}
	return string(out)
}

func chatTool(name string, props ...string) map[string]any {
	p := map[string]any{}
	for _, k := range props {
		p[k] = map[string]any{"type": "string"}
	}
	return map[string]any{"type": "function", "function": map[string]any{"name": name, "parameters": map[string]any{"type": "object", "properties": p}}}
}

// TestToolServerChatScript plays qwen's side of the chat format: each
// reply is the next call of the script, with the arguments the declared
// schema names, under the working directory the prompt states, and the
// conversation ends in text.
func TestToolServerChatScript(t *testing.T) {
	ts := NewToolServer(t, ToolOptions{})
	tools := []any{
		chatTool("read_file", "file_path"),
		chatTool("write_file", "file_path", "content"),
		chatTool("edit", "file_path", "old_string", "new_string"),
		chatTool("run_shell_command", "command", "description"),
	}
	msgs := []any{
		map[string]any{"role": "system", "content": "I'm currently working in the directory: /work/repo"},
		map[string]any{"role": "user", "content": "Speak."},
	}
	want := []struct{ name, args string }{
		{"write_file", `{"content":"written by the scripted model\n","file_path":"/work/repo/ROUNDTABLE_WROTE.txt"}`},
		{"read_file", `{"file_path":"/work/repo/NOTES.md"}`},
		{"edit", `{"file_path":"/work/repo/NOTES.md","new_string":"ROUNDTABLE_EDITED","old_string":"cron"}`},
		{"run_shell_command", `{"command":"touch ROUNDTABLE_TOUCHED","description":"Touch a file"}`},
	}
	for i, w := range want {
		stream := i%2 == 1
		out := post(t, ts.URL+"/v1/chat/completions", map[string]any{"model": "tiny", "stream": stream, "messages": msgs, "tools": tools})
		var call map[string]any
		if stream {
			if !strings.Contains(out, `"finish_reason":"tool_calls"`) || !strings.HasSuffix(out, "data: [DONE]\n\n") {
				t.Fatalf("reply %d does not end a streamed tool call: %s", i, out)
			}
			line := strings.Split(out, "\n\n")[1]
			var ch struct {
				Choices []struct {
					Delta struct {
						ToolCalls []map[string]any `json:"tool_calls"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ch); err != nil || len(ch.Choices[0].Delta.ToolCalls) != 1 {
				t.Fatalf("reply %d: %v: %s", i, err, line)
			}
			call = ch.Choices[0].Delta.ToolCalls[0]
		} else {
			var r struct {
				Choices []struct {
					Message struct {
						ToolCalls []map[string]any `json:"tool_calls"`
					} `json:"message"`
				} `json:"choices"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Choices[0].Message.ToolCalls) != 1 {
				t.Fatalf("reply %d: %v: %s", i, err, out)
			}
			call = r.Choices[0].Message.ToolCalls[0]
		}
		fn := call["function"].(map[string]any)
		if fn["name"] != w.name || fn["arguments"] != w.args {
			t.Fatalf("reply %d calls %v(%v), want %s(%s)", i, fn["name"], fn["arguments"], w.name, w.args)
		}
		delete(call, "index")
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}},
			map[string]any{"role": "tool", "tool_call_id": call["id"], "content": "refused"})
	}
	out := post(t, ts.URL+"/v1/chat/completions", map[string]any{"model": "tiny", "messages": msgs, "tools": tools})
	if !strings.Contains(out, "that is my answer") || !strings.Contains(out, `"finish_reason":"stop"`) {
		t.Fatalf("after the script: %s", out)
	}
	title := post(t, ts.URL+"/v1/chat/completions", map[string]any{"model": "tiny", "messages": msgs[:2]})
	if !strings.Contains(title, "Noted.") {
		t.Fatalf("a side request got %s", title)
	}
	got := strings.Join(ts.Replies(), " ")
	if got != "write:write_file read:read_file edit:edit shell:run_shell_command final plain" {
		t.Fatalf("replies %s", got)
	}
}

// TestToolServerResponsesFallback plays codex's side: with only a shell
// tool taking a cmd string, every attempt runs through it (the write and
// the edit as apply_patch commands, which codex takes as patches),
// streamed as Responses events ending in response.completed; a custom
// apply_patch tool gets a custom_tool_call with the patch.
func TestToolServerResponsesFallback(t *testing.T) {
	ts := NewToolServer(t, ToolOptions{})
	shell := map[string]any{"type": "function", "name": "exec_command", "parameters": map[string]any{"type": "object", "properties": map[string]any{"cmd": map[string]any{"type": "string"}}}}
	input := []any{map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "<cwd>/w</cwd> Speak."}}}}
	for i, want := range []string{
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ROUNDTABLE_WROTE.txt\n",
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: NOTES.md\n@@\n-Nightly jobs run from cron on one host.\n+Nightly jobs run from ROUNDTABLE_EDITED on one host.\n",
		"touch ROUNDTABLE_TOUCHED",
	} {
		out := post(t, ts.URL+"/v1/responses", map[string]any{"model": "tiny", "stream": true, "input": input, "tools": []any{shell}})
		if !strings.Contains(out, "event: response.completed") || !strings.Contains(out, `"type":"function_call"`) {
			t.Fatalf("reply %d: %s", i, out)
		}
		var args string
		for ev := range strings.SplitSeq(out, "\n\n") {
			if !strings.Contains(ev, "event: response.output_item.done") {
				continue
			}
			var d struct{ Item map[string]any }
			if err := json.Unmarshal([]byte(ev[strings.Index(ev, "data: ")+6:]), &d); err != nil {
				t.Fatal(err)
			}
			var a struct{ Cmd string }
			raw, _ := d.Item["arguments"].(string)
			if err := json.Unmarshal([]byte(raw), &a); err != nil {
				t.Fatalf("reply %d: arguments %q: %v", i, raw, err)
			}
			args = a.Cmd
			input = append(input, d.Item, map[string]any{"type": "function_call_output", "call_id": d.Item["call_id"], "output": "exit 1"})
		}
		if !strings.Contains(args, want) {
			t.Fatalf("reply %d runs %s, want %q in it", i, args, want)
		}
	}
	out := post(t, ts.URL+"/v1/responses", map[string]any{"model": "tiny", "input": input, "tools": []any{shell}})
	if !strings.Contains(out, `"output_text"`) || !strings.Contains(out, "that is my answer") {
		t.Fatalf("after the script: %s", out)
	}
	patch := map[string]any{"type": "custom", "name": "apply_patch"}
	out = post(t, ts.URL+"/v1/responses", map[string]any{"model": "tiny", "input": input[:1], "tools": []any{patch, shell}})
	if !strings.Contains(out, `"type":"custom_tool_call"`) || !strings.Contains(out, `*** Add File: ROUNDTABLE_WROTE.txt`) {
		t.Fatalf("apply_patch: %s", out)
	}
}

// TestToolServerMessages plays claude's side: a streamed tool_use whose
// input arrives as input_json_delta, and a non-streamed side request
// without tools answered in text.
func TestToolServerMessages(t *testing.T) {
	ts := NewToolServer(t, ToolOptions{Dir: "/d"})
	write := map[string]any{"name": "Write", "input_schema": map[string]any{"type": "object", "properties": map[string]any{
		"file_path": map[string]any{"type": "string"}, "content": map[string]any{"type": "string"},
	}}}
	out := post(t, ts.URL+"/v1/messages", map[string]any{
		"model": "tiny", "stream": true, "tools": []any{write},
		"messages": []any{map[string]any{"role": "user", "content": "Speak."}},
	})
	for _, want := range []string{"event: message_start", `"type":"tool_use"`, `"name":"Write"`, `\"file_path\":\"/d/ROUNDTABLE_WROTE.txt\"`, `"stop_reason":"tool_use"`, "event: message_stop"} {
		if !strings.Contains(out, want) {
			t.Fatalf("lacks %s: %s", want, out)
		}
	}
	out = post(t, ts.URL+"/v1/messages", map[string]any{"model": "tiny", "messages": []any{map[string]any{"role": "user", "content": "A title?"}}})
	if !strings.Contains(out, `"type":"text"`) || !strings.Contains(out, `"stop_reason":"end_turn"`) {
		t.Fatalf("side request: %s", out)
	}
}
