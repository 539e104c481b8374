// A worker module that cannot load.
throw new Error('this worker cannot start');
