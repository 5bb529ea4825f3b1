//go:build llm

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/roundtable-dev/roundtable/debate/debatetest"
)

// seatModel is a scripted model that plays a room's seat through the
// room's own tools, as a capable model would, on OpenAI's chat
// completions (opencode, Qwen Code), OpenAI's Responses (Codex),
// Anthropic's messages (Claude Code) and Google's generateContent (Gemini
// CLI) wire formats, streamed or not. The
// seat is the one the conversation names ("SEAT=lead" or "SEAT=peer"); its
// tools are those whose name holds "-<seat>" and ends in the room tool's
// name (roundtable-R-lead_post, mcp__roundtable-R-lead__post). A CLI that
// loads MCP tools on demand is served as it asks: Claude Code's ToolSearch
// first, Qwen Code's tool_search then tool_call.
//
// The lead posts a brief, waits (again on idle) for the peer's answer,
// writes the spec and closes the room; the peer waits (again on idle),
// answers the brief, then waits until the room is closed. Each wait asks
// a second less than the one before (Qwen Code halts a run that repeats a
// call with the same arguments). A request without the seat's tools (a
// title, a summary) gets a short plain answer.
type seatModel struct {
	*httptest.Server
	n     atomic.Int64
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

func (m *seatModel) record(call string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, call)
}

var (
	seatMark = regexp.MustCompile(`SEAT=(lead|peer)`)
	// deferredTool is a room tool's name as a CLI that loads MCP tools
	// on demand names it in its prompt.
	deferredTool = regexp.MustCompile(`[A-Za-z0-9_]*roundtable-[A-Za-z0-9-]+-(?:lead|peer)_+(?:room_status|read_room|wait_for_message|post|write_spec|close_room)`)
	idleReply    = regexp.MustCompile(`"idle"\s*:\s*true`)
	closedReply  = regexp.MustCompile(`"closed"\s*:\s*true`)
)

// conversation is a request read in any of the three formats: the texts
// (system, user, tool results), the calls made (name and arguments) and
// the last tool result.
type conversation struct {
	texts  []string
	calls  [][2]string
	result string
	tools  []string
	stream bool
	// ns maps a namespaced tool as listed in tools (its "-" restored) to
	// its name on the wire.
	ns map[string]string
}

// textOf is a content value as text: a string, or parts/blocks with text
// (a tool_result block's content too).
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, p := range x {
			pm, _ := p.(map[string]any)
			if s, ok := pm["text"].(string); ok {
				b.WriteString(s)
			}
			if c, ok := pm["content"]; ok {
				b.WriteString(textOf(c))
			}
			if s, ok := pm["output"].(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// stringsIn is every string in v (a decoded JSON value) joined: a
// Gemini functionResponse's result, whatever its shape.
func stringsIn(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, y := range x {
			b.WriteString(stringsIn(y))
		}
		return b.String()
	case map[string]any:
		var b strings.Builder
		for _, k := range slices.Sorted(maps.Keys(x)) {
			b.WriteString(stringsIn(x[k]))
		}
		return b.String()
	}
	return ""
}

func readConversation(format string, req map[string]any) conversation {
	var c conversation
	c.stream, _ = req["stream"].(bool)
	tools, _ := req["tools"].([]any)
	for _, x := range tools {
		tm, _ := x.(map[string]any)
		if fn, ok := tm["function"].(map[string]any); ok {
			tm = fn
		}
		n, _ := tm["name"].(string)
		if tm["type"] == "namespace" {
			// Codex: an MCP server's tools under its name ("-" made "_"),
			// called as namespace/function.
			inner, _ := tm["tools"].([]any)
			for _, y := range inner {
				if fn, ok := y.(map[string]any)["name"].(string); ok {
					listed := strings.ReplaceAll(n, "_", "-") + "/" + fn
					if c.ns == nil {
						c.ns = map[string]string{}
					}
					c.ns[listed] = n + "/" + fn
					c.tools = append(c.tools, listed)
				}
			}
			continue
		}
		if n != "" {
			c.tools = append(c.tools, n)
		}
	}
	args := func(v any) string {
		if s, ok := v.(string); ok {
			return s
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	switch format {
	case "chat":
		msgs, _ := req["messages"].([]any)
		for _, x := range msgs {
			mm, _ := x.(map[string]any)
			switch mm["role"] {
			case "assistant":
				calls, _ := mm["tool_calls"].([]any)
				for _, y := range calls {
					fn, _ := y.(map[string]any)["function"].(map[string]any)
					n, _ := fn["name"].(string)
					c.calls = append(c.calls, [2]string{n, args(fn["arguments"])})
				}
			case "tool":
				c.result = textOf(mm["content"])
				c.texts = append(c.texts, c.result)
			default:
				c.texts = append(c.texts, textOf(mm["content"]))
			}
		}
	case "responses":
		c.texts = append(c.texts, textOf(req["instructions"]))
		items, _ := req["input"].([]any)
		for _, x := range items {
			im, _ := x.(map[string]any)
			switch im["type"] {
			case "function_call":
				n, _ := im["name"].(string)
				c.calls = append(c.calls, [2]string{n, args(im["arguments"])})
			case "function_call_output":
				c.result = textOf(im["output"])
				c.texts = append(c.texts, c.result)
			default:
				c.texts = append(c.texts, textOf(im["content"]))
			}
		}
	case "gemini":
		// Google's generateContent: contents of parts (text, functionCall,
		// functionResponse), the tools as functionDeclarations.
		for _, x := range tools {
			decls, _ := x.(map[string]any)["functionDeclarations"].([]any)
			for _, d := range decls {
				if n, _ := d.(map[string]any)["name"].(string); n != "" {
					c.tools = append(c.tools, n)
				}
			}
		}
		if si, ok := req["systemInstruction"].(map[string]any); ok {
			c.texts = append(c.texts, textOf(si["parts"]))
		}
		contents, _ := req["contents"].([]any)
		for _, x := range contents {
			parts, _ := x.(map[string]any)["parts"].([]any)
			for _, p := range parts {
				pm, _ := p.(map[string]any)
				switch {
				case pm["functionCall"] != nil:
					fc, _ := pm["functionCall"].(map[string]any)
					n, _ := fc["name"].(string)
					c.calls = append(c.calls, [2]string{n, args(fc["args"])})
				case pm["functionResponse"] != nil:
					fr, _ := pm["functionResponse"].(map[string]any)
					c.result = stringsIn(fr["response"])
					c.texts = append(c.texts, c.result)
				default:
					c.texts = append(c.texts, textOf([]any{pm}))
				}
			}
		}
	default:
		c.texts = append(c.texts, textOf(req["system"]))
		msgs, _ := req["messages"].([]any)
		for _, x := range msgs {
			mm, _ := x.(map[string]any)
			blocks, ok := mm["content"].([]any)
			if !ok {
				c.texts = append(c.texts, textOf(mm["content"]))
				continue
			}
			for _, b := range blocks {
				bm, _ := b.(map[string]any)
				switch bm["type"] {
				case "tool_use":
					n, _ := bm["name"].(string)
					c.calls = append(c.calls, [2]string{n, args(bm["input"])})
				case "tool_result":
					c.result = textOf(bm["content"])
					c.texts = append(c.texts, c.result)
				default:
					c.texts = append(c.texts, textOf([]any{bm}))
				}
			}
		}
	}
	return c
}

func (m *seatModel) serve(w http.ResponseWriter, r *http.Request) {
	if debatetest.ServeMeta(w, r) {
		return
	}
	format := debatetest.WireFormat(r.URL.Path)
	if format == "" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	if json.Unmarshal(body, &req) != nil {
		http.Error(w, "the body is not JSON", http.StatusBadRequest)
		return
	}
	c := readConversation(format, req)
	if format == "gemini" {
		c.stream = debatetest.GeminiStream(r.URL.Path)
	}
	id := fmt.Sprintf("seat%d", m.n.Add(1))
	seat := ""
	for _, t := range c.texts {
		if sm := seatMark.FindStringSubmatch(t); sm != nil {
			seat = sm[1]
			break
		}
	}
	var deferred []string
	for _, t := range c.texts {
		for _, n := range deferredTool.FindAllString(t, -1) {
			if strings.Contains(n, "-"+seat+"_") && !slices.Contains(deferred, n) {
				deferred = append(deferred, n)
			}
		}
	}
	if os.Getenv("ROUNDTABLE_SEATMODEL_DEBUG") == "raw" {
		_ = os.WriteFile(fmt.Sprintf("/tmp/seatmodel-%d.json", m.n.Load()), body, 0o600)
	}
	if os.Getenv("ROUNDTABLE_SEATMODEL_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "seatmodel %s: seat %q tools %q deferred %q calls %q\n", format, seat, c.tools, deferred, c.calls)
	}
	declared := func(name string) string {
		for _, t := range c.tools {
			if strings.Contains(t, "-"+seat) && strings.HasSuffix(t, name) {
				return t
			}
		}
		return ""
	}
	plain := func(text string) { debatetest.WriteReply(w, format, c.stream, id, "", nil, text) }
	if seat == "" {
		plain("Noted.")
		return
	}
	if declared("wait_for_message") == "" {
		// The tools load on demand: search for them first.
		switch {
		case len(deferred) > 0 && slices.Contains(c.tools, "ToolSearch") && !slices.ContainsFunc(c.calls, func(x [2]string) bool { return x[0] == "ToolSearch" }):
			m.record(seat + " ToolSearch")
			debatetest.WriteReply(w, format, c.stream, id, "ToolSearch", map[string]any{"query": "select:" + strings.Join(deferred, ",")}, "")
			return
		case len(deferred) > 0 && slices.Contains(c.tools, "tool_search") && slices.Contains(c.tools, "tool_call"):
		default:
			plain("Noted.")
			return
		}
	}
	bridge := declared("wait_for_message") == ""
	tool := func(name string) string {
		if t := declared(name); t != "" {
			return t
		}
		for _, t := range deferred {
			if strings.HasSuffix(t, name) {
				return t
			}
		}
		return ""
	}
	// Where the seat is: its last call (through Qwen's bridge: the tool
	// it named) and what it returned, whether it posted, how often it
	// waited, whether it searched.
	last, posted, searched, waits := "", false, false, 0
	for _, call := range c.calls {
		last = call[0]
		switch last {
		case "ToolSearch":
			last = ""
			continue
		case "tool_search":
			searched, last = true, ""
			continue
		case "tool_call":
			var a struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal([]byte(call[1]), &a)
			last = a.Name
		}
		posted = posted || strings.HasSuffix(last, "post")
		if strings.HasSuffix(last, "wait_for_message") {
			waits++
		}
	}
	if bridge && !searched {
		m.record(seat + " tool_search")
		debatetest.WriteReply(w, format, c.stream, id, "tool_search", map[string]any{"query": "select:" + strings.Join(deferred, ",")}, "")
		return
	}
	idle, closed := idleReply.MatchString(c.result), closedReply.MatchString(c.result)
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
		plain("The room is closed; I am done.")
		return
	}
	m.record(seat + " " + name)
	if wire, ok := c.ns[name]; ok {
		name = wire
	}
	if bridge {
		debatetest.WriteReply(w, format, c.stream, id, "tool_call", map[string]any{"name": name, "arguments": args}, "")
		return
	}
	debatetest.WriteReply(w, format, c.stream, id, name, args, "")
}
