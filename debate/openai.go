package debate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
	"unicode"
)

// OpenAICompatible streams chat completions from any server that speaks the
// OpenAI chat API: OpenRouter, OpenAI, Ollama, LM Studio, vLLM, llama.cpp's
// server. It always sends max_tokens and stream_options.include_usage.
// Requests that fail with 429 or 5xx before the first token are retried
// with backoff, honoring Retry-After; every other failure is returned,
// with the deltas already delivered standing.
//
// It speaks the wire format itself (one POST, a server-sent event stream):
// that is all a debate needs of the API, and a generated SDK for the whole
// of it cost every roundtable process, seats included, about 7 MiB of
// resident memory and 20 MB of binary for one request shape.
type OpenAICompatible struct {
	name      string
	model     string
	baseURL   string
	endpoint  string // baseURL + /chat/completions
	apiKey    string
	maxTokens int
	// openRouter adds the app title header and asks for usage accounting.
	openRouter bool
	client     *http.Client
	retry      retryPolicy
}

// NewOpenAICompatible builds the provider for c (from ResolveProvider).
// It reads no environment itself, so a key meant for one server never
// reaches another.
func NewOpenAICompatible(c ProviderConfig) (*OpenAICompatible, error) {
	if err := checkBaseURL("the base URL", c.BaseURL); err != nil {
		return nil, err
	}
	if c.Model == "" {
		return nil, fmt.Errorf("%w: the %s provider needs a model; pass --model", ErrBadProvider, c.Name)
	}
	maxTokens := c.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	return &OpenAICompatible{
		name: c.Name, model: c.Model, baseURL: c.BaseURL, maxTokens: maxTokens,
		endpoint:   strings.TrimRight(c.BaseURL, "/") + "/chat/completions",
		apiKey:     c.APIKey,
		openRouter: c.Name == ProviderOpenRouter,
		client:     &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		retry:      defaultRetry(),
	}, nil
}

// closeIdle closes idle keep-alive connections.
func (p *OpenAICompatible) closeIdle() { p.client.CloseIdleConnections() }

// Name is the provider's name (openrouter, openai or ollama).
func (p *OpenAICompatible) Name() string { return p.name }

// Model is the default model.
func (p *OpenAICompatible) Model() string { return p.model }

// chatRequest is the body of a streamed chat completion request.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []chatMessage `json:"messages"`
	MaxTokens     int           `json:"max_tokens"`
	Stream        bool          `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	// Usage asks OpenRouter for its usage accounting (the cost in the
	// usage chunk; always on today, asked for explicitly for older
	// deployments). Other servers ignore it, so it is sent only there.
	Usage *struct {
		Include bool `json:"include"`
	} `json:"usage,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// chatChunk is one chat.completion.chunk of the stream, read leniently:
// servers differ in what else they send (llama.cpp adds timings, a first
// delta with content null), and only these fields matter.
type chatChunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int      `json:"prompt_tokens"`
		CompletionTokens int      `json:"completion_tokens"`
		Cost             *float64 `json:"cost"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// Stream sends req and streams the reply's content deltas.
func (p *OpenAICompatible) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	cr := chatRequest{Model: model, MaxTokens: p.maxTokens, Stream: true}
	cr.StreamOptions.IncludeUsage = true
	if p.openRouter {
		cr.Usage = &struct {
			Include bool `json:"include"`
		}{Include: true}
	}
	cr.Messages = make([]chatMessage, 0, len(req.Messages))
	for _, m := range req.Messages {
		role := m.Role
		if role != RoleSystem && role != RoleAssistant {
			role = RoleUser
		}
		cr.Messages = append(cr.Messages, chatMessage{Role: role, Content: m.Content})
	}
	body, err := json.Marshal(cr)
	if err != nil {
		return Usage{}, fmt.Errorf("encode the request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		usage, started, err := p.once(ctx, body, onDelta)
		var se *StatusError
		if err != nil && !started && ctx.Err() == nil && droppedBeforeReply(err) {
			// The connection died before any reply: typically a kept-alive
			// connection the server had just closed. Nothing was said, so
			// asking again is safe.
			se = &StatusError{Message: err.Error()}
			if attempt >= p.retry.maxRetries {
				return usage, p.describe(err, started)
			}
			d, _ := p.retry.wait(attempt, se)
			p.notify(req, attempt, 0, d)
			if err := p.retry.sleep(ctx, d); err != nil {
				return usage, err
			}
			continue
		}
		if err == nil || started || !errors.As(err, &se) {
			return usage, err
		}
		se.Attempts = attempt + 1
		if !se.retryable() || attempt >= p.retry.maxRetries {
			return usage, err
		}
		d, ok := p.retry.wait(attempt, se)
		if !ok {
			return usage, fmt.Errorf("%w; the server asks to wait %s, longer than the %s roundtable waits", err, d.Round(time.Second), p.retry.maxWait)
		}
		p.notify(req, attempt, se.StatusCode, d)
		if err := p.retry.sleep(ctx, d); err != nil {
			return usage, err
		}
	}
}

// notify tells req's OnRetry that attempt number attempt+2 comes after
// wait, the last one having failed with status (0: dropped).
func (p *OpenAICompatible) notify(req Request, attempt, status int, wait time.Duration) {
	if req.OnRetry != nil {
		req.OnRetry(Retry{Attempt: attempt + 2, Attempts: p.retry.maxRetries + 1, Status: status, Wait: wait})
	}
}

// streamError is an error the server sent inside the event stream, after
// the 200 status.
type streamError struct{ Message string }

func (e *streamError) Error() string { return "the server sent an error in the stream: " + e.Message }

// maxEventBytes bounds one server-sent event: a chunk carries a few
// tokens, so a megabyte means the stream is not what it claims.
const maxEventBytes = 1 << 20

// once makes one request. started reports whether any content arrived.
// Its errors say what happened (describe), but for a connection dropped
// before any reply, which is returned raw for Stream to ask again.
func (p *OpenAICompatible) once(ctx context.Context, body []byte, onDelta func(string) error) (usage Usage, started bool, err error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return usage, false, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	hreq.Header.Set("User-Agent", "roundtable")
	if p.apiKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+p.apiKey)
	}
	if p.openRouter {
		hreq.Header.Set("X-Title", "roundtable")
	}
	res, err := p.client.Do(hreq)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return usage, false, context.Cause(ctx)
		case droppedBeforeReply(err):
			return usage, false, err // Stream asks again
		}
		return usage, false, p.describe(err, false)
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 8<<10))
		se := &StatusError{StatusCode: res.StatusCode, Message: serverMessage(msg)}
		se.RetryAfter, se.HasRetryAfter = parseRetryAfter(res.Header, time.Now())
		return usage, false, se
	}
	finish := ""
	var deltaErr error // what onDelta refused with, returned as it is
	err = readEvents(res.Body, func(event string, data []byte) error {
		if event == "error" {
			return &streamError{Message: serverMessage(data)}
		}
		var c chatChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("%w: malformed chunk: %v", ErrBadStream, err)
		}
		if len(c.Error) > 0 && string(c.Error) != "null" {
			return &streamError{Message: serverMessage(data)}
		}
		if u := c.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
			usage = Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
			if u.Cost != nil {
				usage.Cost = *u.Cost
			}
		}
		content := ""
		for _, ch := range c.Choices {
			if ch.Index != 0 {
				continue
			}
			content += ch.Delta.Content
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				finish = *ch.FinishReason
			}
		}
		if content != "" {
			started = true
		}
		// An empty delta still tells the engine's watchdog the stream lives.
		deltaErr = onDelta(content)
		return deltaErr
	})
	switch {
	case err == nil:
	case deltaErr != nil:
		return usage, started, deltaErr
	case ctx.Err() != nil:
		return usage, started, context.Cause(ctx)
	case errors.Is(err, ErrBadStream):
		return usage, started, err
	case finish != "":
		var se *streamError
		if errors.As(err, &se) {
			return usage, started, err
		}
		// The reply was complete; only the tail (usage, [DONE]) was lost.
		return usage, started, nil
	default:
		return usage, started, p.describe(err, started)
	}
	if finish == "" {
		return usage, started, fmt.Errorf("%w: the stream ended without a finish reason; the connection was probably cut", ErrBadStream)
	}
	return usage, started, nil
}

// readEvents reads a server-sent event stream from r and calls onEvent
// with each event's type ("" unless an event line named one) and data (its
// data lines joined by newlines), until the stream's "[DONE]" or its end.
// An error from onEvent stops the reading and is returned as it is.
func readEvents(r io.Reader, onEvent func(event string, data []byte) error) error {
	br := bufio.NewReaderSize(r, 16<<10)
	var data []byte
	event := ""
	dispatch := func() error {
		d, ev := data, event
		data, event = data[:0], ""
		if len(d) == 0 {
			return nil
		}
		return onEvent(ev, d)
	}
	tooLong := fmt.Errorf("%w: an event longer than %d bytes", ErrBadStream, maxEventBytes)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole, within the bound.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxEventBytes {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			if len(long) > maxEventBytes {
				return tooLong
			}
			line = long
		}
		if len(line) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return dispatch()
			}
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if derr := dispatch(); derr != nil {
				return derr
			}
		case line[0] == ':': // a comment: OpenRouter's keep-alive
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "data":
				if string(value) == "[DONE]" && len(data) == 0 {
					return nil
				}
				if len(data) > 0 {
					data = append(data, '\n')
				}
				if len(data)+len(value) > maxEventBytes {
					return tooLong
				}
				data = append(data, value...)
			case "event":
				event = string(value)
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return dispatch()
			}
			return err
		}
	}
}

// droppedBeforeReply reports whether err is a connection that closed or
// reset before the server answered, as opposed to a server that is not
// there (refused) or one that answered with an error.
func droppedBeforeReply(err error) bool {
	var se *StatusError
	var opErr *net.OpError
	switch {
	case errors.As(err, &se):
		return false
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return false
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		strings.HasSuffix(err.Error(), errServerClosedIdle)
}

// errServerClosedIdle is how net/http reports a kept-alive connection the
// server closed as a request was being sent on it (its error is not
// exported). It retries only idempotent requests itself; nothing reached
// the server, so a chat request is safe to send again.
const errServerClosedIdle = "http: server closed idle connection"

// describe turns a stream error into one that says what happened.
func (p *OpenAICompatible) describe(err error, started bool) error {
	var se *StatusError
	var streamErr *streamError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var opErr *net.OpError
	switch {
	case errors.As(err, &se):
		return se
	case errors.As(err, &streamErr):
		return fmt.Errorf("%w: %s", ErrBadStream, streamErr.Error())
	case errors.As(err, &syn) || errors.As(err, &typ):
		return fmt.Errorf("%w: malformed chunk: %v", ErrBadStream, err)
	case !started && errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Errorf("cannot reach %s (%w); is the server running?", p.baseURL, err)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &opErr):
		return fmt.Errorf("connection lost mid-stream: %w", err)
	}
	return fmt.Errorf("stream failed: %w", err)
}

// serverMessage finds the explanation in an error body: the OpenAI shape
// {"error": {"message": ...}}, {"error": "..."}, {"message": ...}, or the
// start of the text.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			msg = inner.Message
		case json.Unmarshal(v.Error, &msg) == nil:
		default:
			msg = v.Message
		}
	} else {
		msg = string(body)
	}
	msg = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, msg)), " ")
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	return msg
}
