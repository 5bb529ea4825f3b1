//go:build llm

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// seatModel is a scripted model that plays a room's seat through the
// room's own tools, as a capable model would, on OpenAI's chat
// completions wire format (streamed or not). The seat is the one the
// conversation's first user message names ("SEAT=lead" or "SEAT=peer");
// its tools are the declared tools whose name holds "-<seat>" and ends in
// the room tool's name (roundtable-R-lead_post, mcp__roundtable-R-lead__post).
//
// The lead posts a brief, waits (again on idle) for the peer's answer,
// writes the spec and closes the room; the peer waits (again on idle),
// answers the brief, then waits until the room is closed. A request
// without tools (a title, a summary) gets a short plain answer.
type seatModel struct {
	*httptest.Server
	mu    sync.Mutex
	calls []string // the tool calls made, "<seat> <tool>"
}

func newSeatModel(t *testing.T) *seatModel {
	m := &seatModel{}
	m.Server = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.Close)
	return m
}

// Calls are the tool calls the model made, in order.
func (m *seatModel) Calls() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.calls...)
}

var (
	seatMark = regexp.MustCompile(`SEAT=(lead|peer)`)
	// deferredTool is a room tool's name as a CLI that loads MCP tools
	// on demand lists it in its prompt (Qwen Code: mcp__<server>__<tool>).
	deferredTool = regexp.MustCompile(`[A-Za-z0-9_]*roundtable-[A-Za-z0-9-]+-(?:lead|peer)_+(?:room_status|read_room|wait_for_message|post|write_spec|close_room)`)
	idleReply    = regexp.MustCompile(`"idle"\s*:\s*true`)
	closedReply  = regexp.MustCompile(`"closed"\s*:\s*true`)
)

type chatMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// text is a message's content as text, whether a string or parts.
func (c chatMessage) text() string {
	var s string
	if json.Unmarshal(c.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(c.Content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (m *seatModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []chatMessage `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") || json.Unmarshal(body, &req) != nil {
		http.Error(w, "this scripted model speaks chat completions only", http.StatusNotFound)
		return
	}
	seat := ""
	for _, msg := range req.Messages {
		if msg.Role == "user" {
			if sm := seatMark.FindStringSubmatch(msg.text()); sm != nil {
				seat = sm[1]
			}
			break
		}
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Function.Name)
	}
	// The seat's tools: declared, or deferred (named in the prompt and
	// reached through tool_search and tool_call, as Qwen Code offers
	// them).
	var deferred []string
	for _, msg := range req.Messages {
		for _, n := range deferredTool.FindAllString(msg.text(), -1) {
			if strings.Contains(n, "-"+seat+"_") && !slices.Contains(deferred, n) {
				deferred = append(deferred, n)
			}
		}
	}
	bridge := slices.Contains(tools, "tool_search") && slices.Contains(tools, "tool_call")
	viaBridge := false
	tool := func(name string) string {
		for _, t := range tools {
			if strings.Contains(t, "-"+seat) && strings.HasSuffix(t, name) {
				return t
			}
		}
		if bridge {
			for _, t := range deferred {
				if strings.HasSuffix(t, name) {
					viaBridge = true
					return t
				}
			}
		}
		return ""
	}
	if os.Getenv("ROUNDTABLE_SEATMODEL_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "seatmodel: seat %q tools %q deferred %q\n", seat, tools, deferred)
	}
	if seat == "" || tool("wait_for_message") == "" {
		writeChatReply(w, req.Stream, "", nil, "Noted.")
		return
	}
	// Where the seat is: its last call (through the bridge: the tool it
	// named) and what it returned, whether it posted, whether it searched.
	last, result, posted, searched, waits := "", "", false, false, 0
	for _, msg := range req.Messages {
		switch msg.Role {
		case "assistant":
			for _, c := range msg.ToolCalls {
				last = c.Function.Name
				switch last {
				case "tool_search":
					searched = true
					last = ""
				case "tool_call":
					var a struct {
						Name string `json:"name"`
					}
					_ = json.Unmarshal([]byte(c.Function.Arguments), &a)
					last = a.Name
				}
				posted = posted || strings.HasSuffix(last, "post")
				if strings.HasSuffix(last, "wait_for_message") {
					waits++
				}
			}
		case "tool":
			result = msg.text()
		}
	}
	if viaBridge && !searched {
		// A capable model reads the schemas before calling: tool_search.
		query := "select:" + strings.Join(deferred, ",")
		m.record(seat + " tool_search")
		writeChatReply(w, req.Stream, "tool_search", map[string]any{"query": query}, "")
		return
	}
	idle, closed := idleReply.MatchString(result), closedReply.MatchString(result)
	// Each wait asks a second less than the one before: Qwen Code halts a
	// run that repeats one tool call with the same arguments, and a
	// capable model waiting again says how long.
	wait := map[string]any{"timeout_seconds": 55 - waits%30}
	var name string
	var args map[string]any
	switch {
	case seat == "lead" && last == "":
		name, args = tool("post"), map[string]any{"text": "Brief: should the cache be write-through? I propose write-through with a 5 s TTL.", "kind": "brief"}
	case seat == "lead" && strings.HasSuffix(last, "post"):
		name, args = tool("wait_for_message"), wait
	case seat == "lead" && strings.HasSuffix(last, "wait_for_message") && idle:
		name, args = tool("wait_for_message"), wait
	case seat == "lead" && strings.HasSuffix(last, "wait_for_message"):
		name, args = tool("write_spec"), map[string]any{"text": "# Decision\n\nWrite-through, 5 s TTL.\n\n## Dissent\n\nNone.\n"}
	case seat == "lead" && strings.HasSuffix(last, "write_spec"):
		name, args = tool("close_room"), map[string]any{"reason": "agreement reached"}
	case seat == "peer" && (last == "" || strings.HasSuffix(last, "post")):
		name, args = tool("wait_for_message"), wait
	case seat == "peer" && strings.HasSuffix(last, "wait_for_message") && !idle && !closed && !posted:
		name, args = tool("post"), map[string]any{"text": "Agreed, with the TTL as a setting.", "kind": "answer"}
	case seat == "peer" && strings.HasSuffix(last, "wait_for_message") && !closed:
		name, args = tool("wait_for_message"), wait
	}
	if name == "" {
		writeChatReply(w, req.Stream, "", nil, "The room is closed; I am done.")
		return
	}
	m.record(seat + " " + name)
	if viaBridge {
		writeChatReply(w, req.Stream, "tool_call", map[string]any{"name": name, "arguments": args}, "")
		return
	}
	writeChatReply(w, req.Stream, name, args, "")
}

func (m *seatModel) record(call string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, call)
}

// writeChatReply answers a chat completion: one tool call, or text.
func writeChatReply(w http.ResponseWriter, stream bool, name string, args map[string]any, text string) {
	a, _ := json.Marshal(args)
	var call []map[string]any
	finish := "stop"
	if name != "" {
		call = []map[string]any{{"index": 0, "id": fmt.Sprintf("call_%d", len(a)), "type": "function", "function": map[string]any{"name": name, "arguments": string(a)}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !stream {
		msg := map[string]any{"role": "assistant", "content": text}
		if call != nil {
			msg["tool_calls"] = call
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chat", "object": "chat.completion", "model": "tiny",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) {
		b, _ := json.Marshal(map[string]any{
			"id": "chat", "object": "chat.completion.chunk", "model": "tiny",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}, "usage": usage,
		})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if call != nil {
		chunk(map[string]any{"role": "assistant", "tool_calls": call}, nil, nil)
	} else {
		chunk(map[string]any{"role": "assistant", "content": text}, nil, nil)
	}
	chunk(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
}
