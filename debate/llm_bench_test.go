//go:build llm

package debate

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

const benchPrompt = "Licensed under the Apache License, Version 2.0"

// streamFigures are what a client sees of one streamed reply.
type streamFigures struct {
	ttft   time.Duration // request sent → first content token
	total  time.Duration // request sent → last token
	tokens int           // completion tokens (from the usage chunk)
}

func (f streamFigures) tokPerSec() float64 {
	gen := f.total - f.ttft
	if gen <= 0 || f.tokens < 2 {
		return 0
	}
	return float64(f.tokens-1) / gen.Seconds()
}

// curlStream asks the server with curl and times the chunks as they arrive.
func curlStream(b *testing.B, url string, maxTokens int) streamFigures {
	body, _ := json.Marshal(map[string]any{
		"model": "tiny", "stream": true, "max_tokens": maxTokens,
		"stream_options": map[string]any{"include_usage": true},
		"messages":       []map[string]string{{"role": "user", "content": benchPrompt}},
	})
	cmd := exec.Command("curl", "-sN", url+"/chat/completions", "-H", "Content-Type: application/json", "-d", string(body))
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatalf("curl: %v (install curl)", err)
	}
	var f streamFigures
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		if line == "" || line == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content *string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if json.Unmarshal([]byte(line), &chunk) != nil {
			continue
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != nil && *chunk.Choices[0].Delta.Content != "" {
			if f.ttft == 0 {
				f.ttft = time.Since(start)
			}
			f.total = time.Since(start)
		}
		if chunk.Usage != nil {
			f.tokens = chunk.Usage.CompletionTokens
		}
	}
	_ = cmd.Wait()
	return f
}

// providerStream asks through roundtable's OpenAI-compatible provider.
func providerStream(b *testing.B, url string, maxTokens int) streamFigures {
	p, err := NewOpenAICompatible(ProviderConfig{Name: ProviderOllama, BaseURL: url, Model: "tiny", MaxTokens: maxTokens})
	if err != nil {
		b.Fatal(err)
	}
	var f streamFigures
	start := time.Now()
	u, err := p.Stream(context.Background(), Request{Messages: []Message{{Role: "user", Content: benchPrompt}}}, func(d string) error {
		if d == "" {
			return nil
		}
		if f.ttft == 0 {
			f.ttft = time.Since(start)
		}
		f.total = time.Since(start)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	f.tokens = u.CompletionTokens
	return f
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// BenchmarkLLMProviderVsCurl streams the same request from the same
// llama-server, alternating curl and the provider, and reports the median
// time to first token and tokens per second of each, and the provider's
// overhead against the raw stream.
func BenchmarkLLMProviderVsCurl(b *testing.B) {
	url := os.Getenv("ROUNDTABLE_LLM_URL")
	if url == "" {
		b.Fatal("ROUNDTABLE_LLM_URL is not set: run with make e2e-llm")
	}
	const maxTokens = 256
	var cTTFT, pTTFT, cRate, pRate []float64
	for b.Loop() {
		c := curlStream(b, url, maxTokens)
		p := providerStream(b, url, maxTokens)
		cTTFT = append(cTTFT, float64(c.ttft.Microseconds())/1000)
		pTTFT = append(pTTFT, float64(p.ttft.Microseconds())/1000)
		cRate = append(cRate, c.tokPerSec())
		pRate = append(pRate, p.tokPerSec())
	}
	b.ReportMetric(median(cTTFT), "curl-ttft-ms")
	b.ReportMetric(median(pTTFT), "provider-ttft-ms")
	b.ReportMetric(median(cRate), "curl-tok/s")
	b.ReportMetric(median(pRate), "provider-tok/s")
	b.ReportMetric(100*(median(cRate)-median(pRate))/median(cRate), "rate-overhead-%")
}
