package record_test

import (
	"errors"

	"chainwatch/api"
)

func asNotRecorded(err error, nr **api.NotRecordedError) bool { return errors.As(err, nr) }
