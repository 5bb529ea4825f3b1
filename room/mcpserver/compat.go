package mcpserver

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// Agents and scripts written for the original server must keep working.
// Where mcp-go's defaults differ from what the original answered, the
// hooks here bring the answer back in line:
//
//   - A call to a tool that does not exist is a tool result with isError
//     ("Unknown tool: x"), not a JSON-RPC error: the agent reads the
//     refusal and carries on, where many clients treat a protocol error as
//     the server failing.
//   - An optional argument sent as null means "not given", as it did for
//     the original (which only looked at arguments of the right type); some
//     models send null for every argument they leave out.
//   - A wrong argument type is refused by mcp-go's input-schema validation;
//     its message ("/text: got number, want string") is put in a sentence naming the argument and the type it takes, and
//     told what to do next.
//   - A council seat's pass (post with kind "pass") may leave text out,
//     though the schema, which every room's seats share, requires it.

// unknownTool is registered but never listed. A call to any name the seat
// does not serve is routed to it, carrying the name it was called by.
const unknownTool = "roundtable_unknown_tool"

// validationPrefix starts mcp-go's message for arguments that do not match
// a tool's input schema.
const validationPrefix = "input schema validation failed: "

// compatHooks adds the hooks above; known is every tool name served.
func (s *Seat) compatHooks(hooks *server.Hooks, known map[string]bool) {
	addCompatHooks(hooks, known, func(context.Context) *Seat { return s })
}

// addCompatHooks adds the hooks above for a server whose calls are made by
// the seat seatOf returns (nil: none yet, as before a host's session has
// its seat).
func addCompatHooks(hooks *server.Hooks, known map[string]bool, seatOf func(context.Context) *Seat) {
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest) {
		name := req.Params.Name
		if s := seatOf(ctx); s != nil {
			s.log("call", room.F("seat", s.opt.Seat), room.F("tool", name))
		}
		if !known[name] || name == unknownTool {
			req.Params.Name = unknownTool
			req.Params.Arguments = map[string]any{"name": name}
			req.Params.RawArguments = nil
			return
		}
		if args, ok := req.Params.Arguments.(map[string]any); ok {
			for k, v := range args {
				if v == nil {
					delete(args, k)
					req.Params.RawArguments = nil
				}
			}
			// A pass needs no text: one left out is empty, so the
			// schema's required text does not refuse it (the store
			// refuses an empty post outside a council, with a sentence).
			if _, has := args["text"]; name == "post" && !has && args["kind"] == room.KindPass {
				args["text"] = ""
				req.Params.RawArguments = nil
			}
		}
	})
	hooks.AddAfterCallTool(func(_ context.Context, _ any, req *mcp.CallToolRequest, result any) {
		res, ok := result.(*mcp.CallToolResult)
		if !ok || res == nil || !res.IsError || len(res.Content) != 1 {
			return
		}
		tc, ok := res.Content[0].(mcp.TextContent)
		if !ok || !strings.HasPrefix(tc.Text, validationPrefix) {
			return
		}
		detail := strings.TrimPrefix(tc.Text, validationPrefix)
		tc.Text = fmt.Sprintf("%s was not run: %s. Fix that and call %s again; tools/list shows each argument's type.",
			req.Params.Name, argumentProblems(detail), req.Params.Name)
		res.Content[0] = tc
	})
}

var (
	// wrongTypeRE, missingRE and boundRE match mcp-go's leaf messages (its
	// validator's, jsonschema v6): "/text: got number, want string",
	// "<root>: missing property 'text'" (or "missing properties 'a', 'b'"),
	// "/limit: minimum: got 0, want 1".
	wrongTypeRE = regexp.MustCompile(`^(\S+): got (\w+), want (\w+(?: or \w+)*)$`)
	missingRE   = regexp.MustCompile(`^(\S+): missing propert(?:y|ies) ('.*')$`)
	boundRE     = regexp.MustCompile(`^(\S+): (?:minimum|maximum|exclusiveMinimum|exclusiveMaximum): got (\S+), want (\S+)$`)
	quotedRE    = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)
)

// argumentProblems puts mcp-go's validation messages (joined with "; ")
// in words: which argument, what it was, what it must be. A message of
// another shape is kept as it is.
func argumentProblems(detail string) string {
	parts := strings.Split(detail, "; ")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if m := wrongTypeRE.FindStringSubmatch(p); m != nil {
			wants := strings.Split(m[3], " or ")
			for i, w := range wants {
				wants[i] = withArticle(w)
			}
			out = append(out, fmt.Sprintf("the argument %s must be %s, not %s", argName(m[1]), strings.Join(wants, " or "), withArticle(m[2])))
			continue
		}
		if m := missingRE.FindStringSubmatch(p); m != nil {
			var names []string
			for _, q := range quotedRE.FindAllStringSubmatch(m[2], -1) {
				names = append(names, q[1])
			}
			noun, verb := "argument", "is"
			if len(names) > 1 {
				noun, verb = "arguments", "are"
			}
			where := ""
			if m[1] != "<root>" {
				where = " in " + argName(m[1])
			}
			out = append(out, fmt.Sprintf("the required %s %s %s missing%s", noun, strings.Join(names, ", "), verb, where))
			continue
		}
		if m := boundRE.FindStringSubmatch(p); m != nil {
			out = append(out, fmt.Sprintf("the argument %s may not be %s: its bound is %s", argName(m[1]), m[2], m[3]))
			continue
		}
		out = append(out, "its arguments do not match its schema ("+p+")")
	}
	return strings.Join(out, "; ")
}

// argName is an argument's name from its JSON pointer: "/text" is text,
// "/a/b" is a.b.
func argName(pointer string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pointer, "/"), "/", ".")
}

func withArticle(jsonType string) string {
	switch jsonType {
	case "null":
		return "null"
	case "integer", "array", "object":
		return "an " + jsonType
	}
	return "a " + jsonType
}

// unknownToolDef is the tool unknown names are routed to.
var unknownToolDef = mcp.NewTool(unknownTool,
	mcp.WithDescription("Answers calls to tools this seat does not have. Not for direct use."),
	mcp.WithString("name", mcp.Description("The tool name that was called.")),
	annotated(readOnly, "Unknown tool"),
)

// unknown refuses a call to a tool the seat does not have, naming those it
// has.
func (s *Seat) unknown(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name := req.GetString("name", unknownTool)
	var names []string
	for _, t := range s.tools() {
		if s.shows(t.Tool.Name) {
			names = append(names, t.Tool.Name)
		}
	}
	sort.Strings(names)
	return refuse("Unknown tool: %s. The %s seat's tools are %s.", name, s.opt.Seat, strings.Join(names, ", "))
}
