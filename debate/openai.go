package debate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// OpenAICompatible streams chat completions from any server that speaks the
// OpenAI chat API: OpenRouter, OpenAI, Ollama, LM Studio, vLLM, llama.cpp's
// server. It always sends max_tokens and stream_options.include_usage.
// Requests that fail with 429 or 5xx before the first token are retried
// with backoff, honoring Retry-After; every other failure is returned,
// with the deltas already delivered standing.
type OpenAICompatible struct {
	name      string
	model     string
	baseURL   string
	maxTokens int
	svc       openai.ChatCompletionService
	client    *http.Client
	retry     retryPolicy
}

// NewOpenAICompatible builds the provider for c (from ResolveProvider).
// It reads no environment itself: the SDK's OPENAI_* defaults are not
// applied, so a key meant for one server never reaches another.
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
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	opts := []option.RequestOption{
		option.WithBaseURL(c.BaseURL),
		option.WithAPIKey(c.APIKey),
		option.WithHTTPClient(client),
		option.WithMaxRetries(0), // retryPolicy is the one retry loop
	}
	if c.Name == ProviderOpenRouter {
		// OpenRouter's app title, and its usage accounting (cost in the
		// usage chunk; always on today, asked for explicitly for older
		// deployments).
		opts = append(opts, option.WithHeader("X-Title", "roundtable"),
			option.WithJSONSet("usage", map[string]any{"include": true}))
	}
	return &OpenAICompatible{
		name: c.Name, model: c.Model, baseURL: c.BaseURL, maxTokens: maxTokens,
		svc:    openai.NewChatCompletionService(opts...),
		client: client,
		retry:  defaultRetry(),
	}, nil
}

// closeIdle closes idle keep-alive connections.
func (p *OpenAICompatible) closeIdle() { p.client.CloseIdleConnections() }

// Name is the provider's name (openrouter, openai or ollama).
func (p *OpenAICompatible) Name() string { return p.name }

// Model is the default model.
func (p *OpenAICompatible) Model() string { return p.model }

// Stream sends req and streams the reply's content deltas.
func (p *OpenAICompatible) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	params := openai.ChatCompletionNewParams{
		Model:         model,
		Messages:      toParams(req.Messages),
		MaxTokens:     openai.Int(int64(p.maxTokens)),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	for attempt := 0; ; attempt++ {
		usage, started, err := p.once(ctx, params, onDelta)
		var se *StatusError
		if err != nil && !started && ctx.Err() == nil && droppedBeforeReply(err) {
			// The connection died before any reply: typically a kept-alive
			// connection the server had just closed. Nothing was said, so
			// asking again is safe.
			se = &StatusError{Message: err.Error()}
			if attempt >= p.retry.maxRetries {
				return usage, err
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

// once makes one request. started reports whether any content arrived.
func (p *OpenAICompatible) once(ctx context.Context, params openai.ChatCompletionNewParams, onDelta func(string) error) (usage Usage, started bool, err error) {
	stream := p.svc.NewStreaming(ctx, params, option.WithMiddleware(statusMiddleware))
	defer stream.Close()
	finish := ""
	for stream.Next() {
		chunk := stream.Current()
		if u := chunk.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
			usage = Usage{PromptTokens: int(u.PromptTokens), CompletionTokens: int(u.CompletionTokens)}
			if f, ok := u.JSON.ExtraFields["cost"]; ok {
				usage.Cost, _ = strconv.ParseFloat(f.Raw(), 64)
			}
		}
		content := ""
		for _, c := range chunk.Choices {
			if c.Index != 0 {
				continue
			}
			content += c.Delta.Content
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
		}
		if content != "" {
			started = true
		}
		// An empty delta still tells the engine's watchdog the stream lives.
		if err := onDelta(content); err != nil {
			return usage, started, err
		}
	}
	if err := stream.Err(); err != nil {
		if ctx.Err() != nil {
			return usage, started, context.Cause(ctx)
		}
		if finish != "" {
			// The reply was complete; only the tail (usage, [DONE]) was lost.
			return usage, started, nil
		}
		return usage, started, p.describe(err, started)
	}
	if finish == "" {
		if ctx.Err() != nil {
			return usage, started, context.Cause(ctx)
		}
		return usage, started, fmt.Errorf("%w: the stream ended without a finish reason; the connection was probably cut", ErrBadStream)
	}
	return usage, started, nil
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
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// describe turns a stream error into one that says what happened.
func (p *OpenAICompatible) describe(err error, started bool) error {
	var se *StatusError
	var streamErr *ssestream.StreamError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var opErr *net.OpError
	switch {
	case errors.As(err, &se):
		return se
	case errors.As(err, &streamErr):
		return fmt.Errorf("%w: the server sent an error in the stream: %s", ErrBadStream, strings.TrimPrefix(streamErr.Message, "received error while streaming: "))
	case errors.As(err, &syn) || errors.As(err, &typ):
		return fmt.Errorf("%w: malformed chunk: %v", ErrBadStream, err)
	case !started && errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Errorf("cannot reach %s (%w); is the server running?", p.baseURL, err)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &opErr):
		return fmt.Errorf("connection lost mid-stream: %w", err)
	}
	return fmt.Errorf("stream failed: %w", err)
}

// statusMiddleware turns an HTTP error status into a *StatusError carrying
// the server's message and Retry-After, before the SDK sees the response.
func statusMiddleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res.StatusCode < 400 {
		return res, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 8<<10))
	se := &StatusError{StatusCode: res.StatusCode, Message: serverMessage(body)}
	se.RetryAfter, se.HasRetryAfter = parseRetryAfter(res.Header, time.Now())
	return nil, se
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

func toParams(msgs []Message) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case RoleSystem:
			out = append(out, openai.SystemMessage(m.Content))
		case RoleAssistant:
			out = append(out, openai.AssistantMessage(m.Content))
		default:
			out = append(out, openai.UserMessage(m.Content))
		}
	}
	return out
}
