package debate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzOpenAIStream feeds arbitrary bytes to the OpenAI-compatible provider
// as the body of a streaming reply. Whatever arrives, Stream returns (no
// panic, no hang) with either a reply or an error, and it never reports a
// success for a stream that gave no finish reason.
func FuzzOpenAIStream(f *testing.F) {
	f.Add("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	f.Add("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1},\"timings\":{}}\n\ndata: [DONE]\n\n")
	f.Add("data: {not json\n\n")
	f.Add("data: {\"choices\":[{\"delta\":{\"content\":\"\\u001b[2J\"}}]}\n\n")
	f.Add(": keep-alive\n\nevent: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n")
	f.Add("")
	f.Add("data:{\"ChoiCes\":[{\"deltA\":{\"Content\":\"00\"},\"finish_reAson\":\"000\"}]}")
	var body atomic.Value
	body.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body.Load().(string)))
	}))
	defer srv.Close()
	p, err := NewOpenAICompatible(ProviderConfig{Name: ProviderOpenAI, Model: "m", BaseURL: srv.URL + "/v1", MaxTokens: 16})
	if err != nil {
		f.Fatal(err)
	}
	p.retry.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	f.Fuzz(func(t *testing.T, in string) {
		body.Store(in) // the fuzzer runs one input at a time in this process
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var got strings.Builder
		_, err := p.Stream(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}, func(d string) error {
			got.WriteString(d)
			return nil
		})
		if ctx.Err() != nil {
			t.Fatal("Stream hung on the input")
		}
		// Go's JSON decoder matches keys whatever their case, so
		// "finish_reAson" is a finish reason too.
		if err == nil && !strings.Contains(strings.ToLower(in), "finish_reason") {
			t.Fatalf("success without a finish reason for %q", in)
		}
		if err == nil && !utf8.ValidString(got.String()) && utf8.ValidString(in) {
			t.Fatalf("invalid UTF-8 out of valid input")
		}
	})
}
