// Package store keeps trained checkpoints on the user's machine: the
// browser engine's IndexedDB store (package idb) and an in-memory one for
// tests and for browsers without storage implement the same interface.
//
// A stored checkpoint is two records under one key: its Meta, which a
// listing reads, and the checkpoint's binary encoding (package
// ilpgnn/core/checkpoint), read only when the model is loaded.
package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"

	"ilpgnn/core/checkpoint"
)

// Schema is the version of the stored records. A store opened by a later
// release upgrades older records; it never reads newer ones.
const Schema = 1

// ErrNotFound is returned for a key the store does not hold.
var ErrNotFound = errors.New("no stored checkpoint with that key")

// ErrUnavailable means the store cannot be used at all (no IndexedDB, as in
// some private windows, or the user refused storage).
var ErrUnavailable = errors.New("checkpoint storage is not available in this browser")

// Meta is what a listing shows of a stored checkpoint, without its weights.
type Meta struct {
	Key         string             `json:"key"`
	Schema      int                `json:"schema"`
	Model       string             `json:"model"`
	Dataset     string             `json:"dataset"`
	Fingerprint string             `json:"fingerprint"` // hex SHA-256 of the graph
	Seed        uint64             `json:"seed"`
	Created     int64              `json:"created"` // unix seconds, 0 if unknown
	Metrics     map[string]float64 `json:"metrics"`
	Config      string             `json:"config"` // the checkpoint's configuration (JSON)
	Size        int                `json:"size"`   // bytes of the encoded checkpoint
}

// Key returns the key a checkpoint is stored under: the graph's fingerprint
// and a hash of the hyperparameters (seed included), so retraining the same
// model on the same graph replaces the earlier copy and anything else is
// kept beside it.
func Key(h *checkpoint.Header) string {
	c := sha256.Sum256(h.Config)
	return hex.EncodeToString(h.Fingerprint[:]) + "-" + hex.EncodeToString(c[:8])
}

// MetaOf returns the listing record of an encoded checkpoint, after checking
// that it is one.
func MetaOf(data []byte) (Meta, error) {
	h, err := checkpoint.ReadHeader(bytes.NewReader(data))
	if err != nil {
		return Meta{}, err
	}
	if _, err := checkpoint.Unmarshal(data); err != nil {
		return Meta{}, err
	}
	m := Meta{
		Key: Key(h), Schema: Schema, Model: h.Model, Dataset: h.Dataset,
		Fingerprint: hex.EncodeToString(h.Fingerprint[:]), Seed: h.Seed, Created: h.Created,
		Metrics: make(map[string]float64, len(h.Metrics)), Config: string(h.Config), Size: len(data),
	}
	for _, x := range h.Metrics {
		m.Metrics[x.Name] = x.Value
	}
	return m, nil
}

// Store holds checkpoints by key. Implementations are safe for concurrent
// use.
type Store interface {
	// List returns the metadata of every stored checkpoint, newest first.
	List(ctx context.Context) ([]Meta, error)
	// Put stores data under m.Key, replacing what was there.
	Put(ctx context.Context, m Meta, data []byte) error
	// Get returns the encoded checkpoint under key, or ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)
	// Delete removes key; deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
}

// SortNewestFirst orders metas by creation time, newest first, then key.
func SortNewestFirst(ms []Meta) {
	slices.SortFunc(ms, func(a, b Meta) int {
		if a.Created != b.Created {
			if a.Created > b.Created {
				return -1
			}
			return 1
		}
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
}

// Memory is a Store in memory. Its zero value is empty and ready to use;
// Limit, when positive, makes Put fail beyond that many stored bytes, as a
// full disk would.
type Memory struct {
	Limit int

	mu    sync.Mutex
	metas map[string]Meta
	data  map[string][]byte
}

// ErrQuota is Memory's error for a Put beyond its Limit.
var ErrQuota = errors.New("storage quota exceeded")

// List implements Store.
func (s *Memory) List(context.Context) ([]Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Meta, 0, len(s.metas))
	for _, m := range s.metas {
		out = append(out, m)
	}
	SortNewestFirst(out)
	return out, nil
}

// Put implements Store.
func (s *Memory) Put(_ context.Context, m Meta, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Limit > 0 {
		used := len(data)
		for k, d := range s.data {
			if k != m.Key {
				used += len(d)
			}
		}
		if used > s.Limit {
			return fmt.Errorf("store: %w (%d of %d bytes)", ErrQuota, used, s.Limit)
		}
	}
	if s.metas == nil {
		s.metas, s.data = map[string]Meta{}, map[string][]byte{}
	}
	s.metas[m.Key] = m
	s.data[m.Key] = slices.Clone(data)
	return nil
}

// Get implements Store.
func (s *Memory) Get(_ context.Context, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.data[key]
	if !ok {
		return nil, ErrNotFound
	}
	return slices.Clone(d), nil
}

// Delete implements Store.
func (s *Memory) Delete(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.metas, key)
	delete(s.data, key)
	return nil
}
