package results

// search_json.go: the JSON form of a Search. "valid" is written only for a
// validated search, so an unvalidated one never reads as invalid. Files
// written before "validated" existed load as they were meant: bfsbench run
// validated every search, and the in-process GPU check marked the ones it
// skipped with an error starting "not validated".

import (
	"encoding/json"
	"strings"
)

// searchJSON is Search with the fields whose JSON form differs.
type searchJSON struct {
	searchFields
	Validated *bool `json:"validated,omitempty"`
	Valid     *bool `json:"valid,omitempty"`
}

// searchFields is Search without its methods (no recursion into
// MarshalJSON) and with Validated and Valid hidden by searchJSON's.
type searchFields Search

// legacyUnvalidated prefixes the error of a search the old in-process
// check did not validate.
const legacyUnvalidated = "not validated"

// MarshalJSON implements json.Marshaler.
func (s Search) MarshalJSON() ([]byte, error) {
	s.Validated = s.Validated || s.Valid // a valid search was validated
	j := searchJSON{searchFields: searchFields(s), Validated: &s.Validated}
	if s.Validated {
		j.Valid = &s.Valid
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *Search) UnmarshalJSON(b []byte) error {
	var j searchJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Search(j.searchFields)
	s.Valid = j.Valid != nil && *j.Valid
	switch {
	case j.Validated != nil:
		s.Validated = *j.Validated
	default: // a file from before the field
		s.Validated = !strings.HasPrefix(s.Error, legacyUnvalidated)
		if !s.Validated {
			// "not validated: <note>" carried no error; "not validated,
			// and <problem>" did.
			rest := strings.TrimPrefix(s.Error, legacyUnvalidated)
			s.Error = ""
			if r, ok := strings.CutPrefix(rest, ", and"); ok {
				s.Error = strings.TrimSpace(r)
			}
		}
	}
	if !s.Validated {
		s.Valid = false
	}
	return nil
}
