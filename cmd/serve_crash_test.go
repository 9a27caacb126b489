package cmd

import (
	tea "charm.land/bubbletea/v2"
)

// panicOnKey is the test's hook into a real screen: it hands every message
// to the screen, except "!", after which its View panics as a drawing bug
// does (an index out of range). Production code cannot reach it.
type panicOnKey struct {
	tea.Model
	armed bool
}

func (p *panicOnKey) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "!" {
		p.armed = true
		return p, nil
	}
	m, cmd := p.Model.Update(msg)
	p.Model = m
	return p, cmd
}

func (p *panicOnKey) View() tea.View {
	if p.armed {
		segs, i := []int{1, 2, 3}, 88
		_ = segs[i]
	}
	return p.Model.View()
}

